import { describe, expect, it } from 'vitest';
import { stampEvent, type EventBody, type RunEvent } from '@/lib/protocol';
import { foldRawEvents } from './fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';

const at = (seq: number, body: EventBody): RunEvent => stampEvent(body, { run_id: 'r', seq, ts: seq * 10 });

describe('output_recovery in the view', () => {
  const events = [
    at(0, { event: 'iteration_start', iteration: 1 }),
    at(1, {
      event: 'output_recovery',
      iteration: 1,
      action: 'escalate',
      stop_reason: 'max_tokens',
      max_tokens: 8000,
      next_max_tokens: 64000,
      output_tokens: 8000,
      kept: false,
      reason: 'cut at the 8000-token cap',
    }),
    at(2, { event: 'iteration_start', iteration: 2 }),
    at(3, {
      event: 'output_recovery',
      iteration: 2,
      action: 'continue',
      stop_reason: 'max_tokens',
      max_tokens: 64000,
      output_tokens: 64000,
      kept: true,
      continuation: 1,
      max_continuations: 3,
      prompt: '[go on]',
      reason: 'kept',
    }),
  ];

  it('puts each step on its own turn card with the header saying what is happening', () => {
    const state = foldRawEvents(initialRunViewState(), events);
    expect(state.turns[0]!.outputSteps).toMatchObject([
      { action: 'escalate', maxTokens: 8000, nextMaxTokens: 64000, kept: false },
    ]);
    expect(state.turns[1]!.outputSteps).toMatchObject([
      { action: 'continue', continuation: 1, maxContinuations: 3, prompt: '[go on]' },
    ]);
    expect(state.status).toBe('recovering');
    expect(state.reason).toBe('turn 2: output cap hit: asking the model to continue');
  });

  it('is idempotent on replay', () => {
    const once = foldRawEvents(initialRunViewState(), events);
    expect(foldRawEvents(once, events)).toBe(once);
  });
});
