import type { Clock, Random } from '@/lib/clock';
import type { Emit } from './event-log';

/**
 * What every part of the engine is handed: the run clock (every wait), the run's random
 * (jitter), the log (every decision is an event) and the run's signal (abort and budgets).
 * The engine's option types extend it rather than each declaring it again.
 */
export interface EngineDeps {
  clock: Clock;
  random: Random;
  emit: Emit;
  signal: AbortSignal;
}
