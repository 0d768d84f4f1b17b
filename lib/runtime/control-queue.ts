import { RunAborted, type Emit, type ProviderBinding } from '@/lib/engine';
import type { FaultPlan } from '@/lib/protocol';
import type { VendorTarget } from './bind-vendor';
import type { ControlMessage } from './types';

/**
 * A run's control messages. An abort takes effect at once (an event, then the run's signal);
 * the rest wait for the next request boundary, where the engine asks for them: new fault
 * toggles, a "Compact now", a swap — each an event when it takes effect.
 */
export interface ControlQueue {
  /** Takes a message from outside (the control route, a test, the registry's abandon timer). */
  push(message: ControlMessage): void;
  /** The run's signal: aborted by an abort message or by `abort`. */
  readonly signal: AbortSignal;
  /** Aborts the run from inside (the deadlock watch), with the reason its terminate will carry. */
  abort(reason: Error): void;
  /** The fault plan in force (read by the fault wrapper per request). */
  readonly faults: FaultPlan;
  /** Was "Compact now" asked for since the last request? Read and cleared. */
  takeCompactRequest(): boolean;
  /** At a request boundary: applies what waited, then the swaps due; the new binding, if any. */
  beforeRequest(iteration: number): ProviderBinding | undefined;
  /**
   * The loop is ending: no request boundary will come. A swap still waiting (or asked for from
   * now on) is said not made, in the log, rather than dropped in silence.
   */
  ending(iteration: number): void;
}

export function createControlQueue(options: {
  faults: FaultPlan;
  emit: Emit;
  /** The turn in progress, for an abort's event. */
  iteration: () => number;
  /** Has the log closed? Then messages are ignored. */
  closed: () => boolean;
  /** A swap's key is a secret of this run from the moment it arrives. */
  learnSecret: (key: string) => void;
  /** Queues a swap with the swap controller, which applies it at the same boundary. */
  requestSwap: (target: VendorTarget) => void;
  /** The swap controller's own step at the boundary (scheduled and queued swaps). */
  applySwaps: (iteration: number) => ProviderBinding | undefined;
}): ControlQueue {
  const { emit } = options;
  const controller = new AbortController();
  const pending: ControlMessage[] = [];
  let faults = options.faults;
  let compactRequested = false;
  let ended = false;
  const notMade = (message: ControlMessage, iteration: number): void => {
    if (message.action !== 'swap') return;
    const { vendor, model } = message.target;
    emit({
      event: 'log',
      iteration,
      level: 'warn',
      about: 'swap',
      message: `swap to ${vendor}${model ? `/${model}` : ''} not made: the run ended before its next request`,
    });
  };

  return {
    push(message) {
      if (options.closed()) return;
      if (message.action === 'abort') {
        const reason = message.reason ?? 'aborted';
        emit({ event: 'control', iteration: options.iteration(), action: 'abort', detail: reason });
        controller.abort(new RunAborted(reason));
        return;
      }
      // A key that comes with a swap is a secret of this run from now on, like the first one.
      if (message.action === 'swap' && message.target.apiKey) options.learnSecret(message.target.apiKey);
      if (ended) notMade(message, options.iteration());
      else pending.push(message);
    },
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    get faults() {
      return faults;
    },
    takeCompactRequest() {
      const asked = compactRequested;
      compactRequested = false;
      return asked;
    },
    beforeRequest(iteration) {
      for (const message of pending.splice(0)) {
        if (message.action === 'set_faults') {
          faults = message.faults;
          emit({ event: 'control', iteration, action: 'set_faults', faults, detail: describeFaults(faults) });
        } else if (message.action === 'compact') {
          compactRequested = true;
          emit({
            event: 'control',
            iteration,
            action: 'compact',
            detail: 'compact now: a full compaction before this request, past the breaker',
          });
        } else if (message.action === 'swap') {
          options.requestSwap(message.target);
        }
      }
      return options.applySwaps(iteration);
    },
    ending(iteration) {
      ended = true;
      for (const message of pending.splice(0)) notMade(message, iteration);
    },
  };
}

function describeFaults(plan: FaultPlan): string {
  const rules = plan.rules.filter((r) => r.enabled).map((r) => r.label ?? r.id);
  const tools = plan.tools.filter((t) => t.enabled).map((t) => `${t.kind} ${t.tool}`);
  const all = [...rules, ...tools];
  return all.length === 0 ? 'no faults' : all.join(', ');
}
