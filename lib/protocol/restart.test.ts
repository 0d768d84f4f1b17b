import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from './config';
import { restartRefusal } from './restart';

const HASH = 'a'.repeat(64);
const config = (overrides: Record<string, unknown> = {}) =>
  RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual', ...overrides });

describe('which cut-off runs a restart can resume', () => {
  it('resumes a run whose config is all it depended on: the virtual or paced clock, simulated vendors', () => {
    expect(restartRefusal(config(), { forked: false })).toBeUndefined();
    expect(restartRefusal(config({ clock: 'paced', timeScale: 0.1 }), { forked: false })).toBeUndefined();
    const swapped = config({ swaps: [{ vendor: 'sim-openai', model: '', atTurn: 2 }] });
    expect(restartRefusal(swapped, { forked: false })).toBeUndefined();
  });

  it.each([
    ['the real clock', config({ clock: 'real' }), /real clock/],
    [
      'a real vendor',
      config({ clock: 'paced', provider: { vendor: 'anthropic' } }),
      /real vendor \(anthropic\)/,
    ],
    [
      'a swap to a real vendor',
      config({ swaps: [{ vendor: 'openai', model: 'gpt-4.1', atTurn: 2 }] }),
      /real vendor \(openai\)/,
    ],
    [
      'a key of its own',
      config({ provider: { vendor: 'sim-anthropic', keySource: 'request' } }),
      /its own API key, which lived only in the memory of the process it was sent to/,
    ],
    ['a recording', config({ replay: { cassette: 'demo' } }), /recording/],
    ['a strategy', config({ strategy: { file: 's.ts', sha256: HASH } }), /strategy of its own/],
    ['a task folder', config({ taskDir: { dir: 'task', sha256: HASH } }), /task folder of its own/],
    ['breakpoints', config({ pause: { breakpoints: [{ on: 'request', request: 2 }] } }), /a person decided/],
    ['tool approval', config({ pause: { approval: { tools: 'all' } } }), /a person decided/],
  ])('refuses a run with %s, saying why', (_label, refused, why) => {
    expect(restartRefusal(refused, { forked: false })).toMatch(why);
  });

  it('refuses a fork, whose start was planned from its parent', () => {
    expect(restartRefusal(config(), { forked: true })).toMatch(/it is a fork/);
  });
});
