import { VirtualClock, type Clock } from '@/lib/clock';
import { RunBudgetExceeded } from '@/lib/engine';
import type { RunLog } from './run-log';

const DEADLOCK_MESSAGE =
  'the virtual clock had no timer left and nothing running: nothing could ever wake the run';

/**
 * On the virtual clock a wait nothing can end (no timer left, nothing running) would hang
 * forever or let the process exit mid-run: the run is aborted first (terminate `deadlock`,
 * written by the loop), and if even that cannot move it, the run log closes the log. Resolves
 * when the log had to be closed here; `stop` ends the watch once the run is over.
 */
export function watchDeadlock(options: { clock: Clock; log: RunLog; abort: (reason: Error) => void }): {
  forced: Promise<void>;
  stop: () => void;
} {
  const { clock, log } = options;
  if (!(clock instanceof VirtualClock)) return { forced: new Promise<void>(() => {}), stop: () => {} };
  let forced: () => void = () => {};
  const promise = new Promise<void>((resolve) => (forced = resolve));
  clock.whenStuck(() => {
    if (log.closed) return;
    options.abort(new RunBudgetExceeded('deadlock', DEADLOCK_MESSAGE));
    clock.whenStuck(() => {
      log.close('deadlock', `${DEADLOCK_MESSAGE}; the abort did not release it either`);
      forced();
    });
  });
  return { forced: promise, stop: () => clock.whenStuck(undefined) };
}
