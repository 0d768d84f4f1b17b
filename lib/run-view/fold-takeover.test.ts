import { describe, expect, it } from 'vitest';
import { resolveRecovery, RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from './run-view-state';

const handling = { foreignThinking: 'drop', naive: false } as const;
const events: RunEvent[] = [
  { run_id: 'r', seq: 0, ts: 0, event: 'iteration_start', iteration: 1 },
  {
    run_id: 'r',
    seq: 1,
    ts: 10,
    event: 'swap',
    iteration: 2,
    from_vendor: 'sim-anthropic',
    from_model: 'claude-sim-sonnet',
    to_vendor: 'sim-deepseek',
    to_model: 'deepseek-sim-reasoner',
    dialect: 'deepseek-reasoning',
    cause: 'control',
    handling,
    context_window: 32000,
  },
  {
    run_id: 'r',
    seq: 2,
    ts: 11,
    event: 'takeover_report',
    iteration: 2,
    vendor: 'sim-deepseek',
    model: 'deepseek-sim-reasoner',
    dialect: 'deepseek-reasoning',
    converted: ['1 × tool-call turn given the placeholder reasoning_content "(reasoning omitted)"'],
    dropped: [{ kind: 'thinking', detail: 'thinking block from claude-sim-sonnet dropped' }],
    handling,
    naive: {
      accepted: false,
      status: 400,
      type: 'invalid_request_error',
      message: 'The reasoning_content in the thinking mode must be passed back to the API.',
    },
  },
];

describe('folding swaps and takeover reports', () => {
  it('moves the vendor in force, marks the swap and attaches the first request’s report to it', () => {
    const afterSwap = foldRawEvents(initialRunViewState(), events.slice(0, 2));
    expect([afterSwap.vendor, afterSwap.model]).toEqual(['sim-deepseek', 'deepseek-sim-reasoner']);
    expect(afterSwap.swaps[0]?.report).toBeUndefined();
    expect(afterSwap.markers.at(-1)).toMatchObject({
      kind: 'swap',
      label: 'swapped: sim-anthropic/claude-sim-sonnet → sim-deepseek/deepseek-sim-reasoner',
    });

    const state = foldRawEvents(initialRunViewState(), events);
    expect(state.swaps).toHaveLength(1);
    expect(state.swaps[0]?.report?.dropped).toHaveLength(1);
    expect(state.swaps[0]?.report?.naive).toMatchObject({ accepted: false, status: 400 });
  });
});

describe('the wire on both sides of a swap, on the attempts that sent it', () => {
  const request = (seq: number, iteration: number, vendor: string, background = false): RunEvent => ({
    run_id: 'r',
    seq,
    ts: seq,
    event: 'model_request',
    iteration,
    attempt: 1,
    request_no: seq,
    vendor,
    model: 'm',
    message_count: 3,
    input_tokens_est: 100,
    max_tokens: 1000,
    background,
  });
  const sent = (vendor: string, body: unknown) => ({
    vendor,
    model: 'm',
    url: `http://${vendor}.local`,
    chars: JSON.stringify(body).length,
    body,
  });
  const log: RunEvent[] = [
    { run_id: 'r', seq: 0, ts: 0, event: 'iteration_start', iteration: 1 },
    request(1, 1, 'sim-anthropic'),
    request(2, 1, 'sim-anthropic', true),
    {
      ...(events[1] as Extract<RunEvent, { event: 'swap' }>),
      seq: 3,
      sent_before: sent('sim-anthropic', { messages: ['before'] }),
    },
    { run_id: 'r', seq: 4, ts: 4, event: 'iteration_start', iteration: 2 },
    request(5, 2, 'sim-deepseek'),
    {
      ...(events[2] as Extract<RunEvent, { event: 'takeover_report' }>),
      seq: 6,
      sent: sent('sim-deepseek', { messages: ['after'] }),
    },
  ];

  it('the last foreground request before the swap and the first after it carry the bodies their events kept; nothing else does', () => {
    const state = foldRawEvents(initialRunViewState(), log);
    const [first, second] = state.turns;
    expect(first?.attempts.map((a) => [a.background, a.body, a.bodyAt])).toEqual([
      [
        false,
        { messages: ['before'] },
        'the last request before the swap to sim-deepseek/deepseek-sim-reasoner',
      ],
      [true, undefined, undefined],
    ]);
    expect(second?.attempts[0]).toMatchObject({
      body: { messages: ['after'] },
      bodyAt: 'the first request after the swap from sim-anthropic/claude-sim-sonnet',
    });
    expect(state.swaps[0]?.sentBefore?.body).toEqual({ messages: ['before'] });
    expect(state.swaps[0]?.report?.sent?.body).toEqual({ messages: ['after'] });
  });
});

describe('a swap made by hand, in the config the run page shows and re-runs', () => {
  it('is added to the folded config’s swaps as its event records it', () => {
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
    const start = {
      run_id: 'r',
      seq: 0,
      ts: 0,
      event: 'run_start',
      config,
      recovery: resolveRecovery(config.preset, config.recovery),
      scenario: { id: 'fix-failing-test', title: 't', task: 't' },
      tools: [],
      vendor: 'sim-anthropic',
      model: 'claude-sim-sonnet',
      clock: 'virtual',
      time_scale: 1,
    } as const;
    const recorded = { atTurn: 2, vendor: 'sim-deepseek', model: '', takeover: handling } as const;
    const swap = { ...(events[1] as Extract<RunEvent, { event: 'swap' }>), seq: 1, recorded_as: recorded };
    expect(foldRawEvents(initialRunViewState(), [start, swap]).config?.swaps).toEqual([recorded]);
    expect(
      foldRawEvents(initialRunViewState(), [start, { ...swap, recorded_as: undefined }]).config?.swaps,
    ).toEqual([]);
  });
});
