import type { Clock, Random } from '@/lib/clock';
import type { Emit } from './event-log';

/**
 * What every part of the engine is handed: the run clock (every wait), the run's random
 * (jitter), the log (every decision is an event), the run's signal (abort and budgets) and,
 * when a benchmark asks, its probe. The engine's option types extend it rather than each
 * declaring it again; the engine reads no global.
 */
export interface EngineDeps {
  clock: Clock;
  random: Random;
  emit: Emit;
  signal: AbortSignal;
  probe?: EngineProbe | undefined;
}

/**
 * Opt-in figures for a benchmark, never part of a run's events and never read by the engine:
 * told how late each stream watchdog fired after its deadline, in wall milliseconds (on the
 * real clock only, where lateness is the host's). The load bench's server passes one in
 * (lib/clock/bench-probe.ts); a run without one measures nothing.
 */
export interface EngineProbe {
  watchdogFiredLate(wallMs: number): void;
}
