import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CassetteSchema } from '@/lib/protocol';
import type { CassetteSummary } from '@/lib/protocol/http';
import { buildRunRequest, DEFAULT_FORM } from './playground-form';
import { recordedSettings, replayPatch } from './cassette-form';

/** A shipped cassette as GET /api/cassettes lists it. */
function summary(name: string): CassetteSummary {
  const cassette = CassetteSchema.parse(JSON.parse(readFileSync(`cassettes/${name}.cassette.json`, 'utf8')));
  return {
    id: `shipped:${name}`,
    name,
    source: cassette.source,
    exchanges: cassette.exchanges.length,
    bytes: 0,
    shipped: true,
    truncated: false,
    version: cassette.version,
    ...(cassette.config ? { config: cassette.config } : {}),
  };
}

describe('picking a cassette', () => {
  it('fills in the config it was recorded with, so the run asks the recorded questions', () => {
    const shipped = summary('explain-project.sim-openai');
    const form = { ...DEFAULT_FORM, task: 'something else', seed: 99, ...replayPatch(shipped, 'stop') };
    const { config } = buildRunRequest(form);
    const recorded = shipped.config!;
    expect(config).toMatchObject({
      provider: { vendor: 'sim-openai', model: 'gpt-sim-4o' },
      scenario: recorded.scenario,
      task: recorded.task,
      preset: recorded.preset,
      seed: recorded.seed,
      clock: recorded.clock,
      replay: { cassette: 'shipped:explain-project.sim-openai', offRecording: 'stop' },
    });
    const said = recordedSettings(form, shipped);
    expect(said).toEqual({
      kind: 'kept',
      filled:
        'scenario fix-failing-test, the task “Explain what this project does and where its tests live.”, the built-in system prompt, preset codesmith, seed 11, virtual clock; no faults when recorded',
      changed: [],
      dropped: [],
    });
    // A fault added on top changes nothing the requests are matched on; another task does.
    expect(recordedSettings({ ...form, faults: ['overloaded-x3'] }, shipped)).toMatchObject({ changed: [] });
    expect(recordedSettings({ ...form, task: 'Fix the bug.' }, shipped)).toMatchObject({ changed: ['task'] });
  });

  it('a cassette that does not keep its config sets only the vendor and the replay, and says what it cannot tell', () => {
    const { config: _config, ...old } = { ...summary('explain-project.sim-anthropic'), version: 1 };
    const form = { ...DEFAULT_FORM, task: 'mine', ...replayPatch(old, 'simulate') };
    expect(form).toMatchObject({
      task: 'mine',
      vendor: 'sim-anthropic',
      replay: { offRecording: 'simulate' },
    });
    expect(recordedSettings(form, old)).toEqual({
      kind: 'missing',
      text: expect.stringMatching(/^the cassette does not say what it was recorded with \(a version 1 file/),
    });
  });
});
