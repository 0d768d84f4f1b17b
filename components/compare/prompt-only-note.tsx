/** "system prompt", "system prompt and tool descriptions", "a, b and c". */
function listed(fields: readonly string[]): string {
  return fields.length <= 1 ? (fields[0] ?? '') : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
}

/**
 * Said where prompt text meets a simulated vendor, which does not read it (the decision is
 * lib/compare/prompt-only's): on /compare when two runs differ only in prompt text, in the
 * playground when a run sets prompt text of its own, on the sweep form when prompt sets meet a
 * simulated vendor.
 */
export function PromptOnlyNote({
  fields,
  where,
}: {
  fields: readonly string[];
  where: 'compare' | 'playground' | 'sweep';
}) {
  return (
    <p
      data-testid="prompt-only-note"
      className="rounded border border-wait/50 bg-wait-soft px-3 py-2 text-xs"
    >
      <span className="font-semibold">The simulated model does not read prompts. </span>
      {where === 'compare' ? (
        <>
          These two runs differ only in their {listed(fields)}, on a simulated vendor: what the simulated
          model does comes from the scenario’s script and the seed, so nothing below is the prompt’s effect —
          whatever differs comes from the prompts’ own length (tokens billed, room in the context window), and
          none of it is judged.
        </>
      ) : where === 'sweep' ? (
        <>
          On the simulated vendors this sweep ticks, each prompt set’s {listed(fields)} will be sent and
          billed as tokens, but the simulated model’s choices come from the scenario’s script and the seed:
          their rows differ only by the prompts’ length, never by what a prompt asks for. Add a real endpoint
          below to compare them.
        </>
      ) : (
        <>
          Your {listed(fields)} will be sent and billed as tokens, but the simulated model’s choices come from
          the scenario’s script and the seed: this run does what it would with the built-in text.
        </>
      )}{' '}
      To see what a prompt changes, a real endpoint is needed (Anthropic, OpenAI or an OpenAI-compatible
      server) — or a{' '}
      <a href="/cassettes" className="text-takeover underline">
        cassette
      </a>{' '}
      recorded from one with that prompt (&ldquo;Save as cassette&rdquo; on its run, or{' '}
      <code>npm run loop -- --record</code>), which replays its real answers offline under any fault; a replay
      asked for another prompt leaves the recording at its first request.
    </p>
  );
}
