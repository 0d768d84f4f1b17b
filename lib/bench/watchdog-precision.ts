import { RealClock } from '@/lib/clock';
import { IdleWatchdog } from '@/lib/engine/idle-watchdog';
import { percentile } from './stats';

/**
 * The watchdog on the real clock: how late does it fire after its deadline? Each firing is
 * measured as (fire time − (last touch + window)) in wall milliseconds, by the watchdog itself
 * through the probe the bench hands it (EngineDeps.probe), as a run's engine does for the load bench.
 */
export async function measureWatchdogLateness(options: {
  firings: number;
  windowMs: number;
}): Promise<{ p50: number; p99: number; max: number }> {
  const clock = new RealClock(1);
  const lateness: number[] = [];
  for (let i = 0; i < options.firings; i++) {
    await new Promise<void>((resolve) => {
      const watchdog = new IdleWatchdog({
        clock,
        windowMs: options.windowMs,
        onFire: () => resolve(),
        probe: { watchdogFiredLate: (wallMs) => lateness.push(wallMs) },
      });
      // Touch a few times mid-window, as a live stream would, so the timer has to re-arm.
      const touches = 1 + (i % 3);
      let done = 0;
      const touch = (): void => {
        watchdog.touch();
        if (++done < touches) setTimeout(touch, options.windowMs / 4);
      };
      touch();
    });
  }
  return { p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: Math.max(...lateness) };
}
