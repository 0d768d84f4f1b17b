import type { Emit } from '@/lib/engine';
import { classifyError } from '@/lib/engine/recovery';
import { takeoverRuleOn, type TakeoverHandling } from '@/lib/protocol';
import type { ProviderAdapter } from '@/lib/providers';
import { probeSimRequest } from '@/lib/sim';
import { heldReference, type RenderReport } from '@/lib/trajectory';
import type { BoundVendor } from './bind-vendor';
import { sentBody } from './sent-body';

/**
 * A takeover's two events, emitted on the first request of a swap's binding (the binding is
 * wrapped by lib/runtime/recording-binding.ts, the swap made by lib/runtime/swap-controller.ts):
 * the `takeover_report` (what rendering the history converted and dropped, the body as sent,
 * and the naive counterfactual judged by the strict simulated vendor) and the `takeover_outcome`
 * (what the new vendor answered).
 */

/**
 * The takeover report of the first request on a new binding: the render report, with what the
 * vendor left behind held by reference, and the naive rendering judged by the simulator's validator.
 */
export function emitTakeoverReport(
  emit: Emit,
  input: {
    bound: BoundVendor;
    report: RenderReport;
    request: Parameters<ProviderAdapter['stream']>[0];
    body: unknown;
    iteration: number;
    handling: TakeoverHandling;
    from: { vendor: string; model: string };
  },
): void {
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
}

/**
 * What the new vendor answered the takeover's first request: accepted (answered to its stop
 * reason), refused (an error status before any response began) or failed (broke off, or no
 * answer), the error as the run's one classifier reads it.
 */
export function emitTakeoverOutcome(
  emit: Emit,
  input: {
    bound: BoundVendor;
    model: string;
    iteration: number;
    handling: TakeoverHandling;
    began: boolean;
    finished: boolean;
    error: unknown;
  },
): void {
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
}
