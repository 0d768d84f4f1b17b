export { abortReason, type Clock } from './clock';
export { RealClock } from './real-clock';
export { VirtualClock } from './virtual-clock';

import type { Clock } from './clock';
import { RealClock } from './real-clock';
import { VirtualClock } from './virtual-clock';

/** The clock a run config asks for. */
export function createClock(options: { kind: 'real' | 'virtual'; timeScale: number; startAt?: number }): Clock {
  return options.kind === 'virtual' ? new VirtualClock(options.startAt) : new RealClock(options.timeScale, options.startAt);
}
export { createRandom, type Random } from './random';
