import { createClock } from '@/lib/clock';
import { NO_TOTALS, terminateEvent, type EventBody, type TerminateReason } from '@/lib/protocol';
import { createRunLog } from '@/lib/runtime/run-log';
import type { ControlMessage, LaunchOptions, RunHandle } from '@/lib/runtime/types';
import { sampleRunEvents } from '@/lib/store/sample-run.testkit';

export interface FakeLaunchOptions {
  /** Events between run_start and terminate (content deltas), one per tick. */
  steps?: number;
  tickMs?: number;
  /** Hold the run after this many steps until `release()` (before or after) or an abort. */
  holdAt?: number;
}

export interface FakeLaunch {
  launch: (options: LaunchOptions) => RunHandle;
  controls: ControlMessage[];
  apiKeys: (string | undefined)[];
  release: () => void;
}

/**
 * A stand-in for launchRun with its contract (events in seq order, synchronous onEvent,
 * always ending with terminate, each event through the run log: numbered, storable and
 * redacted once) and a controllable pace, for registry and SSE tests.
 */
export function createFakeLaunch({ steps = 20, tickMs = 1, holdAt }: FakeLaunchOptions = {}): FakeLaunch {
  const controls: ControlMessage[] = [];
  const apiKeys: (string | undefined)[] = [];
  const releases: (() => void)[] = [];
  let released = false;
  const launch = ({ runId, onEvent, apiKey }: LaunchOptions): RunHandle => {
    apiKeys.push(apiKey);
    let stopped: TerminateReason | undefined;
    let wake: (() => void) | undefined;
    const log = createRunLog({
      runId,
      clock: createClock({ kind: 'virtual', timeScale: 1 }),
      apiKey,
      env: process.env,
      onEvent,
    });
    const emit = (body: EventBody): void => void log.emit(body);
    const { run_id: _id, seq: _seq, ts: _ts, ...start } = sampleRunEvents({ runId })[0]!;
    emit(start);
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, ms);
      });
    const done = (async () => {
      for (let step = 0; step < steps && !stopped; step += 1) {
        if (step === holdAt && !released) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            releases.push(resolve);
          });
          if (stopped) break;
        }
        await sleep(tickMs);
        if (stopped) break;
        emit({
          event: 'content_delta',
          iteration: 0,
          attempt: 1,
          index: 0,
          kind: 'text',
          text: `chunk ${step} ${apiKey ?? ''}`.trim(),
        });
      }
      const reason = stopped ?? 'end_turn';
      emit(terminateEvent({ reason, complete: !stopped, totals: NO_TOTALS }));
    })();
    return {
      runId,
      done,
      redactText: log.redactText,
      control(message) {
        controls.push(message);
        if (message.action === 'abort' && !stopped) {
          stopped = message.reason ?? 'aborted';
          emit({ event: 'control', action: 'abort', detail: stopped });
          wake?.();
        }
      },
    };
  };
  const release = (): void => {
    released = true;
    releases.splice(0).forEach((resolve) => resolve());
  };
  return { launch, controls, apiKeys, release };
}
