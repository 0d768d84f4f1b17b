import { describe, expect, it } from 'vitest';
import { createClock } from '@/lib/clock';
import { RunBudgetExceeded } from '@/lib/engine';
import type { RunEvent } from '@/lib/protocol';
import { createRunLog } from './run-log';
import { watchDeadlock } from './watch-deadlock';

describe('the deadlock watch', () => {
  it('on a virtual clock nothing can wake, aborts the run first, then has the run log close it', async () => {
    const clock = createClock({ kind: 'virtual', timeScale: 1 });
    const events: RunEvent[] = [];
    const log = createRunLog({ runId: 'r', clock, env: {}, onEvent: (e) => events.push(e) });
    const aborts: Error[] = [];
    // An abort that releases nothing: the run is as stuck after it as before.
    const watch = watchDeadlock({ clock, log, abort: (reason) => aborts.push(reason) });
    await watch.forced;
    watch.stop();
    expect(aborts).toHaveLength(1);
    expect(aborts[0]).toBeInstanceOf(RunBudgetExceeded);
    expect((aborts[0] as RunBudgetExceeded).reason).toBe('deadlock');
    expect(events).toEqual([
      expect.objectContaining({ seq: 0, event: 'terminate', reason: 'deadlock', complete: false }),
    ]);
    expect((events[0] as { message: string }).message).toMatch(/the abort did not release it either$/);
  });
});
