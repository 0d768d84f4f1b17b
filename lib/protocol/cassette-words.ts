// What the browser says of a cassette, without the schemas (the playground's first load carries no zod).

/** What a cassette without its config cannot tell, in the words the CLI and the playground show. */
export function missingConfigText(version: number): string {
  return `the cassette does not say what it was recorded with (${version === 1 ? 'a version 1 file, from before cassettes kept their config' : 'its config was left out'}): the task, scenario, prompts and preset are not known, and a replay with others leaves the recording at the first request they change`;
}
