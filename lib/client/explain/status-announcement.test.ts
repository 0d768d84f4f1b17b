import { describe, expect, it } from 'vitest';
import { statusAnnouncement } from './status-announcement';

describe('statusAnnouncement', () => {
  it('speaks when the status changes, with the reason of that moment', () => {
    expect(statusAnnouncement('running', 'waiting', 'turn 2: 429 rate limited, then attempt 2 of 4')).toBe(
      'Run waiting: turn 2: 429 rate limited, then attempt 2 of 4',
    );
    expect(statusAnnouncement('waiting', 'done', 'the model ended its turn')).toBe('Run completed: the model ended its turn');
  });

  it('stays quiet while the status holds (deltas, new turns, the countdown) and for a reset to idle', () => {
    expect(statusAnnouncement('running', 'running', 'turn 3: streaming from claude-sim-sonnet')).toBeUndefined();
    expect(statusAnnouncement('done', 'idle', 'not started')).toBeUndefined();
  });
});
