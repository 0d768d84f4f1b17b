import { describe, expect, it } from 'vitest';
import type { SwapView } from '@/lib/run-view/fold-takeover';
import { swapOutcome, type SwapAsk } from './swap-outcome';

const ask: SwapAsk = { target: 'sim-deepseek', afterSeq: 20, accepted: true };
const swap = (seq: number, cause: SwapView['cause']): SwapView => ({
  seq,
  ts: 0,
  iteration: 3,
  fromVendor: 'sim-anthropic',
  fromModel: 'claude-sim-sonnet',
  toVendor: 'sim-deepseek',
  toModel: 'deepseek-sim-reasoner',
  dialect: 'deepseek-reasoning',
  cause,
  handling: { foreignThinking: 'drop', naive: false },
});
const none = { swaps: [], swapNotes: [], terminate: undefined };

describe('swapOutcome: a swap asked for is never left unanswered on screen', () => {
  it('says the route refused it, in its words', () => {
    expect(
      swapOutcome(
        {
          ...ask,
          accepted: false,
          error: 'Run "r" has already finished (end_turn); start a new run instead',
        },
        none,
      ),
    ).toEqual({
      tone: 'fail',
      text: 'Swap to sim-deepseek not made: Run "r" has already finished (end_turn); start a new run instead',
    });
  });

  it('says it was made once the run’s own swap event follows the ask (a scheduled one does not count), and waits for the first answer', () => {
    expect(swapOutcome(ask, { ...none, swaps: [swap(12, 'control'), swap(25, 'scheduled')] }).tone).toBe(
      'wait',
    );
    expect(swapOutcome(ask, { ...none, swaps: [swap(30, 'control')] })).toEqual({
      tone: 'wait',
      text: "Swapped to sim-deepseek/deepseek-sim-reasoner from turn 3: waiting for sim-deepseek's answer to its first request.",
    });
  });

  it('says what the new vendor answered its first request: accepted in green, a refusal in red with its error', () => {
    const handling = { foreignThinking: 'drop', naive: false } as const;
    const accepted = {
      ...swap(30, 'control'),
      outcome: {
        seq: 33,
        ts: 0,
        iteration: 3,
        vendor: 'sim-deepseek',
        model: 'deepseek-sim-reasoner',
        handling,
        outcome: 'accepted' as const,
      },
    };
    expect(swapOutcome(ask, { ...none, swaps: [accepted] })).toEqual({
      tone: 'ok',
      text: 'Swapped to sim-deepseek/deepseek-sim-reasoner from turn 3: sim-deepseek accepted its first request. The takeover panel shows the request before and after.',
    });
    const naive = { foreignThinking: 'drop', naive: true } as const;
    const refused = {
      ...swap(30, 'control'),
      handling: naive,
      outcome: {
        seq: 33,
        ts: 0,
        iteration: 3,
        vendor: 'sim-deepseek',
        model: 'deepseek-sim-reasoner',
        handling: naive,
        outcome: 'refused' as const,
        status: 400,
        vendor_type: 'invalid_request_error',
        message: 'The reasoning_content in the thinking mode must be passed back to the API.',
      },
    };
    expect(swapOutcome(ask, { ...none, swaps: [refused] })).toEqual({
      tone: 'fail',
      text: 'Swapped to sim-deepseek/deepseek-sim-reasoner from turn 3, the history sent as it was (naive takeover): sim-deepseek refused its first request with 400 invalid_request_error: The reasoning_content in the thinking mode must be passed back to the API.',
    });
  });

  it('says it was not made with the run’s note, or that the run ended without it', () => {
    const note = {
      seq: 40,
      ts: 0,
      message: 'swap to sim-deepseek not made: the run ended before its next request',
    };
    expect(swapOutcome(ask, { ...none, swapNotes: [note] })).toEqual({
      tone: 'fail',
      text: `Not swapped: ${note.message}.`,
    });
    const terminate = { ts: 0, seq: 41, reason: 'end_turn', complete: true } as const;
    expect(swapOutcome(ask, { ...none, terminate }).text).toBe(
      'Not swapped: the run ended (end_turn) with no swap to sim-deepseek in its log.',
    );
    expect(swapOutcome(ask, none)).toEqual({
      tone: 'wait',
      text: 'Asked: the run moves to sim-deepseek at its next request.',
    });
  });
});
