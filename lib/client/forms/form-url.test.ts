import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { formFromConfig } from './form-from-config';
import { formToSearch, NOT_IN_URL } from './form-url';
import { formFromSearch } from './form-url-read';
import { buildRunRequest, DEFAULT_FORM, type PlaygroundForm } from './playground-form';

/** A form with every field away from its default. */
const EVERY_FIELD: PlaygroundForm = {
  scenario: 'huge-log',
  task: 'Find why the build fails, & say so in one line.',
  policy: 'repeat-on-failure',
  vendor: 'sim-openai',
  model: 'gpt-sim-mini',
  baseUrl: 'https://user:secret@llm.example/v1',
  foreignThinking: 'note',
  naiveTakeover: true,
  swaps: [
    {
      atTurn: 3,
      vendor: 'sim-deepseek',
      model: 'deepseek-sim-reasoner',
      takeover: { foreignThinking: 'drop', naive: true },
    },
    { atTurn: 5, vendor: 'sim-anthropic', model: '' },
  ],
  takeoverRulesOff: ['latest_turn'],
  preset: 's11',
  overrides: { retry: { maxRetries: 5, baseDelayMs: 250 }, watchdog: { enabled: false } },
  faults: ['overloaded-x3', 'rate-limit-7s', 'tool-flaky'],
  toolFaultTarget: 'run_check',
  seed: 4242,
  timeScale: 0.05,
  clock: 'virtual',
  budgets: { maxIterations: 12, maxCostUsd: 0.25, maxRunMinutes: 2.5, maxAttempts: 40 },
  system: 'You are terse.\nRead before you edit — ünïcødé too.',
  toolDescriptions: { search: 'Find text first.', run_check: 'Run the tests; call it last.' },
  maxOutputTokens: 1_500,
  promptSet: { name: 'terse & quick', version: 3 },
  replay: { cassette: 'shipped:explain-project.sim-openai', offRecording: 'simulate' },
  pause: {
    breakpoints: [
      { on: 'event', event: 'retry_scheduled' },
      { on: 'request', request: 3 },
    ],
    approval: { tools: ['write_file', 'run_check'], timeoutMs: 60_000 },
  },
  answer: {
    name: 'report',
    schemaText: JSON.stringify(
      {
        type: 'object',
        properties: { done: { type: 'boolean' } },
        required: ['done'],
        additionalProperties: false,
      },
      null,
      2,
    ),
    strict: true,
    faults: [
      { kind: 'breaks_schema', times: 2 },
      { kind: 'refusal', times: null },
    ],
  },
};

describe('the playground form in the URL', () => {
  it('round-trips every field but the base URL (the key is not a form field at all)', () => {
    const search = formToSearch(EVERY_FIELD, 'a1b2c3d4-0000-4000-8000-000000000000');
    const { form, runId } = formFromSearch(search);
    expect(form).toEqual({ ...EVERY_FIELD, baseUrl: '' });
    expect(runId).toBe('a1b2c3d4-0000-4000-8000-000000000000');
    // Each field (but the base URL) changed the URL: adding a form field without a codec fails here.
    for (const key of Object.keys(EVERY_FIELD) as (keyof PlaygroundForm)[]) {
      if ((NOT_IN_URL as readonly string[]).includes(key)) continue;
      expect(formToSearch({ ...DEFAULT_FORM, [key]: EVERY_FIELD[key] }), key).not.toBe('');
    }
  });

  it('never carries the key or the endpoint', () => {
    // The key lives outside the form (lib/client/forms/endpoint-key.tsx): there is no field to leak.
    expect(Object.keys(DEFAULT_FORM)).not.toContain('apiKey');
    const search = decodeURIComponent(formToSearch(EVERY_FIELD));
    expect(search).not.toContain('secret');
    expect(search).not.toContain('llm.example');
  });

  it('is compact: the default form is the empty string, one change is one short parameter', () => {
    expect(formToSearch(DEFAULT_FORM)).toBe('');
    expect(formToSearch({ ...DEFAULT_FORM, seed: 7 })).toBe('seed=7');
    expect(formToSearch({ ...DEFAULT_FORM, budgets: { ...DEFAULT_FORM.budgets, maxCostUsd: 0.5 } })).toBe(
      'b=30_0.5_30_200',
    );
  });

  it('leaves a field it cannot read at its default, and keeps the rest', () => {
    const { form, runId } = formFromSearch(
      'seed=-3&v=acme&pre=s11&f=overloaded-x3,nope&rec={broken&b=0_1_30_200&out=5&run=../etc',
    );
    expect(form).toEqual({ ...DEFAULT_FORM, preset: 's11', faults: ['overloaded-x3'] });
    expect(runId).toBeUndefined();
  });
});

describe('open in playground: a run config as the form', () => {
  it('gives back the form that made the config, whatever its fields', () => {
    const form = { ...EVERY_FIELD, baseUrl: '' };
    const config = RunConfigSchema.parse(buildRunRequest(form).config);
    const back = formFromConfig(config);
    expect(back.form).toEqual(form);
    expect(back.dropped).toEqual([]);
  });

  it('names what the form cannot hold, and holds planned swaps (a swap made by hand is recorded as one)', () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      swaps: [{ atTurn: 3, vendor: 'sim-openai' }],
      faults: {
        rules: [{ id: 'custom', when: { kind: 'always' }, action: { type: 'http_error', status: 503 } }],
      },
    });
    const { form, dropped } = formFromConfig(config);
    expect(dropped).toEqual(['faults that are not among the playground’s toggles']);
    expect(buildRunRequest(form).config.swaps).toEqual([{ atTurn: 3, vendor: 'sim-openai', model: '' }]);
  });
});
