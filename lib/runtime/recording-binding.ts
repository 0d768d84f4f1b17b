import type { Emit } from '@/lib/engine';
import type { TakeoverHandling } from '@/lib/protocol';
import type { ProviderAdapter, StreamPart } from '@/lib/providers';
import type { RenderReport } from '@/lib/trajectory';
import type { BoundVendor } from './bind-vendor';
import { emitTakeoverOutcome, emitTakeoverReport } from './takeover-report';

/** The last foreground request body an adapter sent, kept by reference until the next swap reads it. */
export interface LastSent {
  bound: BoundVendor;
  model: string;
  body: unknown;
}

/** What a swap's binding reports on its first request: the takeover it made, and from where. */
export interface TakeoverToReport {
  iteration: number;
  handling: TakeoverHandling;
  from: { vendor: string; model: string };
}

/**
 * Every binding's adapter, as the swap controller (lib/runtime/swap-controller.ts) hands it out:
 * it keeps the last foreground body (onSent); on a swap's binding (`report`), its first request
 * emits the takeover report and, once answered, the takeover's outcome
 * (lib/runtime/takeover-report.ts).
 */
export function recordingBinding(options: {
  bound: BoundVendor;
  report?: TakeoverToReport;
  emit: Emit;
  /** Is a background call (title, summary) on the wire? Its body is not the conversation's. */
  inBackground: () => boolean;
  onSent: (sent: LastSent) => void;
}): BoundVendor {
  const { bound, report, emit } = options;
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
          if (!options.inBackground()) options.onSent({ bound: withProvider, model: request.model, body });
          if (!reporting || !rendered || pending !== reporting) return;
          pending = undefined;
          reported = true;
          emitTakeoverReport(emit, { bound: withProvider, report: rendered, request, body, ...reporting });
        },
      });
      if (!reporting) return streamed;
      const answered = (error: unknown) => {
        if (!reported) return;
        emitTakeoverOutcome(emit, {
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
}
