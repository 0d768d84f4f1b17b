/** How often the shared ticker reads the wall clock while anything on the page counts. */
export const TICK_MS = 100;

/**
 * One wall-clock ticker for every live number on the page. Each counting component used to
 * run its own interval (100 ms here, 250 ms there), so two displays of the same wait — the
 * header's "5.7 s more of 7.0 s" and the attempt card's "1.7 s of 7.0 s" — were read at
 * different moments and disagreed by up to a tick of run time (more at a fast time scale).
 * Now every subscriber is told of the same tick, in one pass, with one `now`; a display that
 * needs less precision takes every k-th tick of the same sequence (`everyTicks`), so when it
 * does move it moves in step with the rest.
 */
export interface WallTicker {
  subscribe(listener: () => void): () => void;
  /** The wall time of the latest tick whose number is a multiple of `everyTicks`. */
  now(everyTicks?: number): number;
}

export function createWallTicker(options: { tickMs?: number; read?: () => number } = {}): WallTicker {
  const tickMs = options.tickMs ?? TICK_MS;
  const read = options.read ?? Date.now;
  const listeners = new Set<() => void>();
  let interval: ReturnType<typeof setInterval> | undefined;
  let tick = 0;
  /** Wall time of the latest tick, and of the latest tick of each coarser period asked for. */
  let latest = read();
  const coarse = new Map<number, number>();

  const advance = (): void => {
    tick++;
    latest = read();
    for (const every of coarse.keys()) if (tick % every === 0) coarse.set(every, latest);
    for (const listener of [...listeners]) listener();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (interval === undefined) {
        // Starting again after a pause: the first reading is now, not when the last run ended.
        latest = read();
        for (const every of coarse.keys()) coarse.set(every, latest);
        interval = setInterval(advance, tickMs);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && interval !== undefined) {
          clearInterval(interval);
          interval = undefined;
        }
      };
    },
    now(everyTicks = 1) {
      if (everyTicks <= 1) return latest;
      let at = coarse.get(everyTicks);
      if (at === undefined) coarse.set(everyTicks, (at = latest));
      return at;
    },
  };
}

/** The page's one ticker. */
export const wallTicker = createWallTicker();
