export { abortReason, type Clock } from './clock';
export { RealClock } from './real-clock';
export { VirtualClock } from './virtual-clock';
export { PacedClock } from './paced-clock';

import type { Clock } from './clock';
import { PacedClock } from './paced-clock';
import { RealClock } from './real-clock';
import { VirtualClock } from './virtual-clock';

/** The clock a run config asks for. */
export function createClock(options: { kind: Clock['kind']; timeScale: number; startAt?: number }): Clock {
  if (options.kind === 'virtual') return new VirtualClock(options.startAt);
  if (options.kind === 'paced') return new PacedClock(options.timeScale, options.startAt);
  return new RealClock(options.timeScale, options.startAt);
}
export { createRandom, type Random } from './random';
