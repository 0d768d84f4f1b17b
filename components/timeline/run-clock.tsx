'use client';

import { formatClock, timeScaleLabel } from '@/lib/run-view/format';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { Stat } from '@/components/ui/stat';

/** The run clock in run time; shows the time scale when it is not 1. */
export function RunClock() {
  const now = useRunClock();
  const clock = useRunStore((s) => s.view.clock);
  const timeScale = useRunStore((s) => s.view.timeScale);
  return (
    <Stat label={clock === 'real' ? 'run clock' : `run clock (${clock})`} title="time in the run's clock">
      <span data-testid="run-clock">{formatClock(now)}</span>
      {clock !== 'virtual' && timeScale !== 1 && (
        <span
          className="ml-1 text-faint"
          data-testid="run-time-scale"
          title={`time scale ${timeScale}: wall time per unit of run time`}
        >
          {timeScaleLabel(timeScale)}
        </span>
      )}
    </Stat>
  );
}
