import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { foldRawEvents } from './fold-raw-events';
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
    expect(afterSwap.markers.at(-1)).toMatchObject({ kind: 'swap', label: 'swapped: sim-anthropic/claude-sim-sonnet → sim-deepseek/deepseek-sim-reasoner' });

    const state = foldRawEvents(initialRunViewState(), events);
    expect(state.swaps).toHaveLength(1);
    expect(state.swaps[0]?.report?.dropped).toHaveLength(1);
    expect(state.swaps[0]?.report?.naive).toMatchObject({ accepted: false, status: 400 });
  });
});
