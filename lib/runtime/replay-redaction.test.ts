import { describe, expect, it } from 'vitest';
import { buildCassette, createExchangeKeeper } from '@/lib/cassettes';
import { RunConfigSchema, type Cassette, type RunConfig, type RunEvent } from '@/lib/protocol';
import { launchRun } from './launch-run';

/**
 * A recording removes every 8-character piece of a key from what it keeps. A key can share such
 * a piece with the request's own text — the model's name, a word of the task — and then the
 * recorded request reads `[redacted]` where the live one has the text. A faithful replay must
 * stay on the recording all the same, on a server that knows the key and on one that does not.
 */
const TASK = 'Explain what this project does; start from its project-overview notes.';
const base = (task = TASK): RunConfig =>
  RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, task, clock: 'virtual', seed: 3 });

async function record(key: string): Promise<Cassette> {
  const kept = createExchangeKeeper();
  const config = base();
  await launchRun({ runId: 'rec', config, apiKey: key, onEvent: () => {}, onExchange: kept.keep }).done;
  return buildCassette({
    exchanges: kept.exchanges,
    vendor: 'sim-anthropic',
    model: 'claude-sim-sonnet',
    note: 'collision',
    clock: 'virtual',
    config,
  });
}

async function replay(
  cassette: Cassette,
  options: { apiKey?: string; task?: string } = {},
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const config = RunConfigSchema.parse({
    ...base(options.task),
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    replay: { cassette: 'collision' },
  });
  await launchRun({
    runId: 'replay',
    config,
    cassette,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    onEvent: (e) => events.push(e),
  }).done;
  return events;
}

function expectFaithful(events: RunEvent[], cassette: Cassette): void {
  expect(events.filter((e) => e.event === 'off_recording')).toEqual([]);
  expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn', complete: true });
  expect(events.filter((e) => e.event === 'model_request')).toHaveLength(cassette.exchanges.length);
}

describe('replay under the recording’s redaction', () => {
  it('a key sharing a piece with the model name: the recording keeps the name (it is public), and the replay stays on it', async () => {
    const key = 'sk-test-claude-sim-sonnet-7f3a9c2e41';
    const cassette = await record(key);
    const text = JSON.stringify(cassette);
    expect(text).not.toContain(key);
    expect(text).not.toContain('sonnet-7f3a');
    expect(cassette.exchanges.every((x) => x.request.body.includes('"model":"claude-sim-sonnet"'))).toBe(
      true,
    );
    for (const apiKey of [undefined, key])
      expectFaithful(await replay(cassette, apiKey ? { apiKey } : {}), cassette);
  });

  it('a key sharing a piece with the task: the recorded requests hide it, and the live ones match under that redaction', async () => {
    const key = 'sk-test-project-overview-0b9d41e7';
    const cassette = await record(key);
    const bodies = cassette.exchanges
      .filter((x) => x.request.body.includes('Explain what'))
      .map((x) => x.request.body);
    expect(bodies.length).toBeGreaterThan(1);
    expect(
      bodies.every((b) => b.includes('start from its [redacted] notes') && !b.includes('project-overview')),
    ).toBe(true);
    for (const apiKey of [undefined, key])
      expectFaithful(await replay(cassette, apiKey ? { apiKey } : {}), cassette);

    // Another task still leaves the recording at its first request, and the difference is named.
    const other = await replay(cassette, {
      task: 'Explain what this project does; start from its project-overview list.',
    });
    expect(other.filter((e) => e.event === 'off_recording')).toEqual([
      expect.objectContaining({
        request_no: 1,
        differs: 'messages: 1 sent, 1 recorded; first difference at message 1 (user)',
      }),
    ]);
  });
});
