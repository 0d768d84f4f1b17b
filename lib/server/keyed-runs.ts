import os from 'node:os';
import type { ControlMessage } from '@/lib/runtime/types';
import type { RunStore } from '@/lib/store';
import type { RunChannels } from './run-channels';
import { attendRun } from './run-jobs';
import type { LocalRunRegistry, StartRunOptions } from './run-registry';

/**
 * How long a web instance's hold on a run it executes itself lasts without renewal (wall time;
 * renewed every third of it while the process lives). Once it lapses, the process is taken to be
 * gone and any worker or web instance ends the run, saying why. It decides only when a dead
 * holder is noticed, never what a run records.
 */
export const KEYED_HOLD_MS = 15_000;
const RENEW_MS = KEYED_HOLD_MS / 3;

/** This process, as a hold names it: host and pid (never anything a request sent). */
export function holderName(): string {
  return `${os.hostname()}:${process.pid}`;
}

/** Why a run whose holder is gone cannot go on anywhere else. */
export function lapsedHoldWhy(holder: string): string {
  return (
    `the web instance that executed it (${holder}) stopped; the run brought its own API key, ` +
    'which lived only in the memory of that process, so no other process can take it up: start a new run, ' +
    'or fork this one from its last turn, with the key'
  );
}

/**
 * The runs a web instance with LOOP_LAB_REDIS_URL executes itself because the request brought
 * its own key: the key goes only to the process its owner sent it to, so such a run never goes
 * on the run queue. It executes on `local` (created on the first such run), its events go to
 * the shared store and are announced on Redis as a worker's are, controls sent through any
 * instance reach it through Redis (lib/server/run-jobs.ts attendRun), and while it runs this
 * process renews a hold on it in Redis, which names the process and nothing else.
 */
export interface KeyedRuns {
  /** Starts the run here; resolves with its id once the store holds it. */
  start(options: StartRunOptions & { apiKey: string }): Promise<{ id: string }>;
  /** Whether this process executes the run now. */
  executesHere(runId: string): boolean;
  /** Applies a control message to a run this process executes (a swap's key stays in this memory). */
  control(runId: string, message: ControlMessage): Promise<void>;
  /** Writes what the store does not hold yet of a run this process executes. */
  writePending(runId: string): Promise<void>;
}

export function createKeyedRuns({
  channels,
  local,
  unwatchedMs,
}: {
  channels: RunChannels;
  local: () => LocalRunRegistry;
  unwatchedMs: number;
}): KeyedRuns {
  let registry: LocalRunRegistry | undefined;
  const here = new Set<string>();
  const said = (runId: string, what: string) => (error: unknown) =>
    console.error(`[loop-lab] run ${runId}: ${what}: ${(error as Error).message}`);

  return {
    async start(options) {
      const executor = (registry ??= local());
      const { id } = await executor.startRun(options);
      here.add(id);
      const renew = (): Promise<void> => channels.hold(id, holderName(), KEYED_HOLD_MS);
      await renew().catch(said(id, 'could not say on Redis that this process executes it'));
      const renewing = setInterval(
        () => void renew().catch(said(id, 'could not renew its hold on Redis')),
        RENEW_MS,
      );
      renewing.unref?.();
      void attendRun({ runId: id, afterSeq: -1, registry: executor, channels, unwatchedMs })
        .catch(said(id, 'other instances may not reach it'))
        .then(() => executor.whenFinished(id))
        .finally(() => {
          clearInterval(renewing);
          here.delete(id);
          return channels.release(id).catch(said(id, 'could not release its hold on Redis'));
        });
      return { id };
    },

    executesHere(runId) {
      return here.has(runId);
    },

    async control(runId, message) {
      await registry!.control({ runId, message });
    },

    async writePending(runId) {
      await registry?.writePending(runId);
    },
  };
}

/**
 * Ends each run a web instance executed with its own key whose hold has lapsed (the process is
 * gone, and the key with it): taken over in the store and closed with a terminate saying why,
 * announced so its readers see it at once. Run by workers and web instances alike, now and then;
 * of two at once, one closes it (the store's take-over, then a close of its own run). Returns the
 * ids it ended.
 */
export async function endLapsedKeyedRuns({
  store,
  channels,
}: {
  store: RunStore;
  channels: RunChannels;
}): Promise<string[]> {
  const ended: string[] = [];
  for (const { runId, holder, lapsed } of await channels.heldRuns()) {
    if (!lapsed) continue;
    if ((await store.getRun(runId))?.summary.status === 'running' && (await store.takeOverRun({ runId }))) {
      const closed = await store.closeInterruptedRuns({ runId, why: lapsedHoldWhy(holder) });
      if (closed.length > 0) {
        console.error(`[loop-lab] run ${runId}: ${lapsedHoldWhy(holder)}`);
        await channels.announce(runId, -1);
        ended.push(runId);
      }
    }
    await channels.release(runId);
  }
  return ended;
}

/** Looks for lapsed holds every RENEW_MS until the returned function is called. */
export function watchKeyedHolds({ store, channels }: { store: RunStore; channels: RunChannels }): () => void {
  let looking = false;
  const look = (): void => {
    if (looking) return;
    looking = true;
    endLapsedKeyedRuns({ store, channels })
      .catch((error: unknown) =>
        console.error(`[loop-lab] runs held by web instances were not checked: ${(error as Error).message}`),
      )
      .finally(() => (looking = false));
  };
  look();
  const timer = setInterval(look, RENEW_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
