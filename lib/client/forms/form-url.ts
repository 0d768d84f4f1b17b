import { DEFAULT_FORM, type PlaygroundForm } from './playground-form';

/**
 * The playground form in the address bar, so a reload or a shared link restores it. Only
 * fields that differ from the defaults are written, under short names. Never written: the API
 * key and the base URL (a key stays in memory; an endpoint may carry credentials of its own).
 * Writing is here, free of schemas (the page writes the address as the form changes); reading
 * checks each value with its schema and lives in form-url-read.ts, run by the server.
 */
type Writer<K extends keyof PlaygroundForm> = { param: string; write: (value: PlaygroundForm[K]) => string };

const text = <K extends keyof PlaygroundForm>(param: string): Writer<K> => ({
  param,
  write: (value) => String(value),
});
const json = <K extends keyof PlaygroundForm>(param: string): Writer<K> => ({
  param,
  write: (value) => JSON.stringify(value),
});

// Every field of the form but the key and the base URL (see above); the round-trip test
// fails when a field is added to the form and not here.
export const FORM_PARAMS: { [K in Exclude<keyof PlaygroundForm, (typeof NOT_IN_URL)[number]>]: Writer<K> } = {
  scenario: text('sc'),
  task: text('t'),
  policy: text('pol'),
  vendor: text('v'),
  model: text('m'),
  foreignThinking: text('ft'),
  naiveTakeover: { param: 'naive', write: (v) => (v ? '1' : '0') },
  takeoverRulesOff: json('rulesoff'),
  preset: text('pre'),
  overrides: json('rec'),
  faults: { param: 'f', write: (ids) => ids.join(',') },
  toolFaultTarget: text('ftool'),
  seed: text('seed'),
  timeScale: text('ts'),
  clock: text('clock'),
  budgets: {
    param: 'b',
    write: (b) => [b.maxIterations, b.maxCostUsd, b.maxRunMinutes, b.maxAttempts].join('_'),
  },
  system: text('sys'),
  toolDescriptions: json('tools'),
  maxOutputTokens: text('out'),
  promptSet: json('ps'),
  swaps: json('sw'),
  replay: json('cassette'),
  pause: json('pause'),
  answer: json('ans'),
};

/** Fields the URL never carries (the API key is no form field: lib/client/forms/endpoint-key.tsx holds it). */
export const NOT_IN_URL = ['baseUrl'] as const satisfies readonly (keyof PlaygroundForm)[];

export type UrlField = keyof typeof FORM_PARAMS;

/** The search string for a form (and the run it shows), without the leading '?'. */
export function formToSearch(form: PlaygroundForm, runId?: string): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(FORM_PARAMS) as UrlField[]) {
    const { param, write } = FORM_PARAMS[key] as Writer<UrlField>;
    const written = write(form[key]);
    if (written !== write(DEFAULT_FORM[key])) params.set(param, written);
  }
  if (runId) params.set('run', runId);
  return params.toString();
}
