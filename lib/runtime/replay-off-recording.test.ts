import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCassette } from '@/lib/cassettes';
import { RunConfigSchema, type OffRecording, type RunEvent } from '@/lib/protocol';
import { launchRun } from './launch-run';

/** A shipped cassette replayed with a system prompt of its own: the first request is off the recording, and the config decides what follows. */
const cassette = parseCassette(readFileSync('cassettes/explain-project.sim-anthropic.cassette.json', 'utf8'));

async function replay(offRecording: OffRecording, system?: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const config = RunConfigSchema.parse({
    provider: { vendor: cassette.source.vendor, model: cassette.source.model },
    task: 'Explain what this project does and where its tests live.',
    clock: 'virtual',
    seed: 11,
    ...(system ? { system } : {}),
    replay: { cassette: 'explain-project.sim-anthropic', offRecording },
  });
  await launchRun({ runId: 'replay', config, cassette, onEvent: (e) => events.push(e) }).done;
  return events;
}

describe('a replay off the recording', () => {
  it('says where and what differs, then stops: the cassette answers 400 (resent within the budget, as CodeSmith’s rule does) and the run ends', async () => {
    const events = await replay('stop', 'Answer in one word.');
    const off = events.filter((e) => e.event === 'off_recording');
    expect(off).toEqual([
      expect.objectContaining({
        request_no: 1,
        recorded_no: 1,
        differs: 'the system prompt differs',
        next: 'stop',
      }),
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'retries_exhausted', complete: false });
    expect(events.filter((e) => e.event === 'llm_call')).toEqual([]);
  });

  it('or goes on on the simulated model, every later request included', async () => {
    const events = await replay('simulate', 'Answer in one word.');
    expect(events.filter((e) => e.event === 'off_recording')).toEqual([
      expect.objectContaining({ request_no: 1, next: 'simulate' }),
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn', complete: true });
    expect(events.filter((e) => e.event === 'llm_call').length).toBe(cassette.exchanges.length);
  });

  it('stays on the recording when nothing that matters differs', async () => {
    const events = await replay('stop');
    expect(events.filter((e) => e.event === 'off_recording')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
  });
});
