import type { Emit, ProviderBinding } from '@/lib/engine';
import {
  MAX_SCHEDULED_SWAPS,
  type EventOf,
  type RunConfig,
  type ScheduledSwap,
  type TakeoverHandling,
} from '@/lib/protocol';
import { ProviderConfigError } from '@/lib/providers';
import type { BoundVendor, VendorTarget } from './bind-vendor';
import { recordingBinding, type LastSent, type TakeoverToReport } from './recording-binding';
import { sentBody } from './sent-body';
import { checkVendorTarget } from './validate-config';

type SwapCause = EventOf<'swap'>['cause'];

interface PendingSwap {
  target: VendorTarget;
  cause: SwapCause;
  reason?: string;
}

export interface SwapController {
  /** The vendor and model in force. */
  readonly current: BoundVendor;
  /** Queues a swap for the next request boundary. */
  request(target: VendorTarget, cause: SwapCause, reason?: string): void;
  /** At a request boundary: applies scheduled and queued swaps; the new binding, if any. */
  apply(iteration: number): ProviderBinding | undefined;
  /** Swaps at once (cross-vendor fallback, between attempts); the new binding, if made. */
  swapNow(
    target: VendorTarget,
    cause: SwapCause,
    reason: string,
    iteration: number,
  ): ProviderBinding | undefined;
}

/**
 * Moves a run between vendors and models at request boundaries. Each swap is
 * a `swap` event carrying the last request body sent on the vendor left behind; the first
 * request on the new binding records a `takeover_report`: what rendering the history converted
 * and dropped, the body as sent, and — rendered naively and validated by the strict simulated
 * vendor — the naive body and the real error the foreign credentials would have met. A swap
 * made by hand says how it is recorded into the run's config (`recorded_as`), so a re-run makes
 * it again. A swap that cannot be made here (no key, a model the vendor does not serve) is a
 * warning in the log and the run stays where it was.
 *
 * The pieces: the state and the swap decisions here; each binding's adapter, which keeps the last
 * body sent and reports a takeover's first request, in lib/runtime/recording-binding.ts; the
 * takeover report and outcome in lib/runtime/takeover-report.ts.
 */
export function createSwapController(options: {
  config: RunConfig;
  initial: BoundVendor;
  bind: (target: VendorTarget) => BoundVendor;
  handling: TakeoverHandling;
  emit: Emit;
  /** Is a background call (title, summary) on the wire? Its body is not the conversation's. */
  inBackground: () => boolean;
  /**
   * A fork: the vendor and model its parent was on at the copied turn. When the fork goes on
   * elsewhere, its first request is a swap (cause `fork`) with its takeover report.
   */
  inherited?: { vendor: string; model: string; reason: string };
}): SwapController {
  const { config, emit } = options;
  let lastSent: LastSent | undefined;
  let recorded = 0;

  /** Every binding's adapter: keeps the last foreground body; on a swap's binding, reports its first request. */
  const recording = (bound: BoundVendor, report?: TakeoverToReport): BoundVendor =>
    recordingBinding({
      bound,
      ...(report ? { report } : {}),
      emit,
      inBackground: options.inBackground,
      onSent: (sent) => (lastSent = sent),
    });
  let current = recording(options.initial);
  const pending: PendingSwap[] = [];
  let inherited = options.inherited;

  /** The last body sent on the vendor being left, for the swap event (once: the next swap has its own). */
  const takeSentBefore = (): Pick<EventOf<'swap'>, 'sent_before'> => {
    const last = lastSent;
    lastSent = undefined;
    if (!last) return {};
    return {
      sent_before: sentBody({
        vendor: last.bound.vendor,
        model: last.model,
        url: last.bound.provider.endpoint,
        body: last.body,
      }),
    };
  };

  const swapTo = (swap: PendingSwap, iteration: number): boolean => {
    const { target } = swap;
    const handling = target.takeover ?? options.handling;
    const label = `${target.vendor}${target.model ? `/${target.model}` : ''}`;
    const bound = bindSwapTarget({ target, label, iteration, current, bind: options.bind, config, emit });
    if (!bound) return false;
    emit({
      event: 'swap',
      iteration,
      from_vendor: current.vendor,
      from_model: current.model,
      to_vendor: bound.vendor,
      to_model: bound.model,
      dialect: bound.dialect.id,
      cause: swap.cause,
      ...(swap.reason ? { reason: swap.reason } : {}),
      handling,
      ...(bound.contextWindow !== undefined ? { context_window: bound.contextWindow } : {}),
      ...(swap.cause === 'control'
        ? recordAs({
            target,
            iteration,
            handling,
            room: MAX_SCHEDULED_SWAPS - config.swaps.length - recorded,
          })
        : {}),
      cache_note: cacheNote(bound.model),
      ...takeSentBefore(),
    });
    if (swap.cause === 'control') recorded += 1;
    const from = { vendor: current.vendor, model: current.model };
    current = recording(bound, { iteration, handling, from });
    return true;
  };

  return {
    get current() {
      return current;
    },
    request(target, cause, reason) {
      pending.push({ target, cause, ...(reason ? { reason } : {}) });
    },
    swapNow(target, cause, reason, iteration) {
      return swapTo({ target, cause, reason }, iteration) ? current : undefined;
    },
    apply(iteration) {
      let swapped = false;
      if (inherited) {
        const from = inherited;
        inherited = undefined;
        if (from.vendor !== current.vendor || from.model !== current.model) {
          emitForkSwap(emit, { from, current, iteration, handling: options.handling });
          current = recording(current, { iteration, handling: options.handling, from });
          swapped = true;
        }
      }
      const due: PendingSwap[] = config.swaps
        .filter((s) => s.atTurn === iteration)
        .map((s) => ({
          target: { vendor: s.vendor, model: s.model, ...(s.takeover ? { takeover: s.takeover } : {}) },
          cause: 'scheduled',
          reason: `planned for turn ${s.atTurn}`,
        }));
      for (const swap of [...due, ...pending.splice(0)]) swapped = swapTo(swap, iteration) || swapped;
      return swapped ? current : undefined;
    },
  };
}

/**
 * Whether a swap can be made: the target checked and bound, or a log event saying why not — a
 * warning when it cannot be made here (no key, a model the vendor does not serve), a note when
 * the run is already on it.
 */
function bindSwapTarget(input: {
  target: VendorTarget;
  label: string;
  iteration: number;
  current: BoundVendor;
  bind: (target: VendorTarget) => BoundVendor;
  config: RunConfig;
  emit: Emit;
}): BoundVendor | undefined {
  const { target, label, iteration, current, config, emit } = input;
  const problems = checkVendorTarget({ target, clock: config.clock });
  if (problems.length > 0) {
    emit({
      event: 'log',
      iteration,
      level: 'warn',
      about: 'swap',
      message: `swap to ${label} not made: ${problems.join('; ')}`,
    });
    return undefined;
  }
  let bound: BoundVendor;
  try {
    bound = input.bind(target);
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    emit({
      event: 'log',
      iteration,
      level: 'warn',
      about: 'swap',
      message: `swap to ${label} not made: ${error.message}`,
    });
    return undefined;
  }
  if (bound.vendor === current.vendor && bound.model === current.model) {
    emit({
      event: 'log',
      iteration,
      level: 'info',
      about: 'swap',
      message: `swap to ${label} skipped: the run is already on it`,
    });
    return undefined;
  }
  return bound;
}

/** A fork's first request on a vendor or model other than its parent's at the copied turn: a swap of cause `fork`. */
function emitForkSwap(
  emit: Emit,
  input: {
    from: { vendor: string; model: string; reason: string };
    current: BoundVendor;
    iteration: number;
    handling: TakeoverHandling;
  },
): void {
  const { from, current, iteration, handling } = input;
  emit({
    event: 'swap',
    iteration,
    from_vendor: from.vendor,
    from_model: from.model,
    to_vendor: current.vendor,
    to_model: current.model,
    dialect: current.dialect.id,
    cause: 'fork',
    reason: from.reason,
    handling,
    ...(current.contextWindow !== undefined ? { context_window: current.contextWindow } : {}),
    cache_note: cacheNote(current.model),
  });
}

/**
 * How a swap made by hand is recorded into the run's stored config: as a scheduled swap at
 * this turn, with the handling it used — unless its address or key came with the swap request,
 * which the config never holds.
 */
function recordAs(input: {
  target: VendorTarget;
  iteration: number;
  handling: TakeoverHandling;
  /** How many more swaps the config can hold. */
  room: number;
}): Pick<EventOf<'swap'>, 'recorded_as' | 'not_recorded'> {
  const { target, iteration, handling } = input;
  if (target.baseUrl || target.apiKey) {
    return {
      not_recorded:
        'its address or key came with the swap request and is held for this run only, so a re-run of this config does not make it',
    };
  }
  if (input.room <= 0) {
    return {
      not_recorded: `the config already holds the most swaps it can (${MAX_SCHEDULED_SWAPS}), so a re-run of this config does not make this one`,
    };
  }
  const recorded: ScheduledSwap = {
    atTurn: iteration,
    vendor: target.vendor,
    model: target.model,
    takeover: handling,
  };
  return { recorded_as: recorded };
}

/** A prompt cache belongs to one vendor and model: what was cached before the swap is not read after it. */
function cacheNote(model: string): string {
  return `the prompt cache does not carry over: the next request on ${model} reads nothing from a cache and its prefix is cached anew`;
}
