import type { Emit, ProviderBinding } from '@/lib/engine';
import { classifyError } from '@/lib/engine/recovery';
import {
  MAX_SCHEDULED_SWAPS,
  takeoverRuleOn,
  type EventOf,
  type RunConfig,
  type ScheduledSwap,
  type TakeoverHandling,
} from '@/lib/protocol';
import type { ProviderAdapter, StreamPart } from '@/lib/providers';
import { ProviderConfigError } from '@/lib/providers';
import { probeSimRequest } from '@/lib/sim';
import { heldReference, type RenderReport } from '@/lib/trajectory';
import type { BoundVendor, VendorTarget } from './bind-vendor';
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

/** The last foreground request body an adapter sent, kept by reference until the next swap reads it. */
interface LastSent {
  bound: BoundVendor;
  model: string;
  body: unknown;
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
  const recording = (
    bound: BoundVendor,
    report?: { iteration: number; handling: TakeoverHandling; from: { vendor: string; model: string } },
  ): BoundVendor => {
    const inner = bound.provider;
    let pending = report;
    const provider: ProviderAdapter = {
      vendor: inner.vendor,
      dialect: inner.dialect,
      ...(inner.endpoint !== undefined ? { endpoint: inner.endpoint } : {}),
      stream(request, streamOptions) {
        const reporting = pending;
        let rendered: RenderReport | undefined;
        // The request that carried the takeover report: its answer is the takeover's outcome.
        let reported = false;
        let began = false;
        let finished = false;
        const streamed = inner.stream(request, {
          ...streamOptions,
          ...(reporting
            ? {
                onRenderReport: (renderReport: RenderReport) => {
                  streamOptions.onRenderReport?.(renderReport);
                  rendered = renderReport;
                },
                onPart: (part: StreamPart) => {
                  if (part.type === 'connected' || part.type === 'response-start') began = true;
                  if (part.type === 'finish') finished = true;
                  streamOptions.onPart(part);
                },
              }
            : {}),
          onRequestBody: (body) => {
            streamOptions.onRequestBody?.(body);
            if (!options.inBackground()) lastSent = { bound: withProvider, model: request.model, body };
            if (!reporting || !rendered || pending !== reporting) return;
            pending = undefined;
            reported = true;
            emitReport({ bound: withProvider, report: rendered, request, body, ...reporting });
          },
        });
        if (!reporting) return streamed;
        const answered = (error: unknown) => {
          if (!reported) return;
          emitOutcome({
            bound: withProvider,
            model: request.model,
            iteration: reporting.iteration,
            handling: reporting.handling,
            began,
            finished,
            error,
          });
        };
        return streamed.then(
          () =>
            answered(
              finished ? undefined : new Error('the stream ended before the vendor finished the response'),
            ),
          (error: unknown) => {
            answered(error ?? new Error('the request failed'));
            throw error;
          },
        );
      },
    };
    const withProvider = { ...bound, provider };
    return withProvider;
  };
  let current = recording(options.initial);
  const pending: PendingSwap[] = [];
  let inherited = options.inherited;

  const emitReport = (input: {
    bound: BoundVendor;
    report: RenderReport;
    request: Parameters<ProviderAdapter['stream']>[0];
    body: unknown;
    iteration: number;
    handling: TakeoverHandling;
    from: { vendor: string; model: string };
  }): void => {
    const { bound, request, iteration, handling } = input;
    // What the vendor left behind held by reference (a stored response) goes again by value:
    // a reference means nothing to another vendor or model. Naively, only what it did not
    // hold would be sent, as the code written for it sends.
    const held = heldReference({ messages: request.messages, from: input.from });
    // With the `handles` safeguard off, a Responses target was sent the reference itself (its render report says so).
    const referenceSent =
      held !== undefined && bound.dialect.wire === 'responses' && !takeoverRuleOn(handling, 'handles');
    const report: RenderReport =
      held && !referenceSent
        ? {
            ...input.report,
            converted: [
              `${held.messages} messages held by reference at ${held.vendor}/${held.model} (previous_response_id ${held.responseId}) re-sent by value: the reference cannot travel to ${bound.vendor}/${bound.model}`,
              ...input.report.converted,
            ],
            safeguards: takeoverRuleOn(handling, 'handles')
              ? {
                  ...input.report.safeguards,
                  handles: {
                    applied: (input.report.safeguards.handles?.applied ?? 0) + 1,
                    as_is: input.report.safeguards.handles?.as_is ?? 0,
                  },
                }
              : input.report.safeguards,
          }
        : input.report;
    // The counterfactual is rendered and judged for real, by the same validator the simulator runs.
    // Naively the reference is kept where the dialect has a place for it, and elsewhere only the
    // messages after it are sent: each is what code written for the first vendor would send.
    // A naive takeover sent the naive rendering itself: its real answer is the takeover's outcome, not a counterfactual.
    const naive = { ...handling, naive: true };
    const naiveRendering = handling.naive
      ? undefined
      : !held
        ? bound.dialect.render({ request, vendor: bound.vendor, handling: naive })
        : bound.dialect.wire === 'responses'
          ? bound.dialect.render({
              request,
              vendor: bound.vendor,
              handling: naive,
              held: { responseId: held.responseId, messages: held.messages },
            })
          : bound.dialect.render({
              request: { ...request, messages: request.messages.slice(held.messages) },
              vendor: bound.vendor,
              handling: naive,
            });
    const verdict = naiveRendering && probeSimRequest({ vendor: bound.vendor, body: naiveRendering.params });
    const at = { vendor: bound.vendor, model: request.model, url: bound.provider.endpoint };
    emit({
      event: 'takeover_report',
      iteration,
      vendor: bound.vendor,
      model: request.model,
      dialect: bound.dialect.id,
      converted: report.converted,
      dropped: report.dropped,
      as_is: report.asIs,
      safeguards: report.safeguards,
      handling,
      ...(verdict
        ? {
            naive: verdict.accepted
              ? { accepted: true }
              : {
                  accepted: false,
                  status: verdict.status,
                  type: verdict.type,
                  message: verdict.message,
                  body: verdict.body,
                },
          }
        : {}),
      sent: sentBody({ ...at, body: input.body }),
      ...(naiveRendering ? { naive_body: sentBody({ ...at, body: naiveRendering.params }) } : {}),
    });
  };

  /**
   * What the new vendor answered the takeover's first request: accepted (answered to its stop
   * reason), refused (an error status before any response began) or failed (broke off, or no
   * answer), the error as the run's one classifier reads it.
   */
  const emitOutcome = (input: {
    bound: BoundVendor;
    model: string;
    iteration: number;
    handling: TakeoverHandling;
    began: boolean;
    finished: boolean;
    error: unknown;
  }): void => {
    const at = {
      event: 'takeover_outcome',
      iteration: input.iteration,
      vendor: input.bound.vendor,
      model: input.model,
      handling: input.handling,
    } as const;
    if (input.error === undefined) {
      emit({ ...at, outcome: 'accepted' });
      return;
    }
    const verdict = classifyError(input.error);
    emit({
      ...at,
      outcome: verdict.status !== undefined && !input.began ? 'refused' : 'failed',
      ...(verdict.status !== undefined ? { status: verdict.status } : {}),
      ...(verdict.vendorType !== undefined ? { vendor_type: verdict.vendorType } : {}),
      message: verdict.message,
      category: verdict.category,
    });
  };

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
    const problems = checkVendorTarget({ target, clock: config.clock });
    if (problems.length > 0) {
      emit({
        event: 'log',
        iteration,
        level: 'warn',
        about: 'swap',
        message: `swap to ${label} not made: ${problems.join('; ')}`,
      });
      return false;
    }
    let bound: BoundVendor;
    try {
      bound = options.bind(target);
    } catch (error) {
      if (!(error instanceof ProviderConfigError)) throw error;
      emit({
        event: 'log',
        iteration,
        level: 'warn',
        about: 'swap',
        message: `swap to ${label} not made: ${error.message}`,
      });
      return false;
    }
    if (bound.vendor === current.vendor && bound.model === current.model) {
      emit({
        event: 'log',
        iteration,
        level: 'info',
        about: 'swap',
        message: `swap to ${label} skipped: the run is already on it`,
      });
      return false;
    }
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
            handling: options.handling,
            ...(current.contextWindow !== undefined ? { context_window: current.contextWindow } : {}),
            cache_note: cacheNote(current.model),
          });
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
