import { describe, expect, it } from 'vitest';
import { statusAnnouncement, swapAnnouncement } from './status-announcement';

describe('statusAnnouncement', () => {
  it('speaks when the status changes, with the reason of that moment', () => {
    expect(statusAnnouncement('running', 'waiting', 'turn 2: 429 rate limited, then attempt 2 of 4')).toBe(
      'Run waiting: turn 2: 429 rate limited, then attempt 2 of 4',
    );
    expect(statusAnnouncement('waiting', 'done', 'the model ended its turn')).toBe(
      'Run completed: the model ended its turn',
    );
  });

  it('stays quiet while the status holds (deltas, new turns, the countdown) and for a reset to idle', () => {
    expect(
      statusAnnouncement('running', 'running', 'turn 3: streaming from claude-sim-sonnet'),
    ).toBeUndefined();
    expect(statusAnnouncement('done', 'idle', 'not started')).toBeUndefined();
  });
});

describe('swapAnnouncement', () => {
  const swap = {
    seq: 40,
    fromVendor: 'sim-anthropic',
    fromModel: 'claude-sim-sonnet',
    toVendor: 'sim-deepseek',
    toModel: 'deepseek-sim-reasoner',
    iteration: 3,
  };
  it('says where the run went and where to look when a swap lands, and nothing when none did', () => {
    expect(swapAnnouncement([], [swap])).toBe(
      'Swapped sim-anthropic/claude-sim-sonnet → sim-deepseek/deepseek-sim-reasoner from turn 3: the takeover panel shows the request before and after.',
    );
    expect(swapAnnouncement([swap], [swap])).toBeUndefined();
  });

  it('then says what the new vendor answered the first request, once', () => {
    const handling = { foreignThinking: 'drop', naive: true } as const;
    const answered = {
      ...swap,
      outcome: {
        seq: 44,
        vendor: 'sim-deepseek',
        model: 'deepseek-sim-reasoner',
        handling,
        outcome: 'refused',
        status: 400,
        vendor_type: 'invalid_request_error',
        message: 'No.',
      } as const,
    };
    expect(swapAnnouncement([swap], [answered])).toBe(
      'sim-deepseek/deepseek-sim-reasoner refused the first request after the swap, the history sent as it was (naive takeover): 400 invalid_request_error: No.',
    );
    expect(swapAnnouncement([answered], [answered])).toBeUndefined();
  });
});
