/**
 * A run's OTLP/JSON export (GET /api/runs/{id}/otel, the file its OTLP link downloads), read
 * span by span for the page: what a reader would look for in a tracing tool — each span's
 * operation, turn, retry number, status and error type, and the retry waits it carries as span
 * events. Read off the export itself, never off the log, so what the page shows is the trace.
 * Zod-free: the export is the server's own (checked against the OTLP schema by its tests).
 */

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface Span {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  attributes?: KeyValue[];
  events?: { name: string; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface TraceRequest {
  resourceSpans?: { scopeSpans?: { spans?: Span[] }[] }[];
}

/** One span as the page lists it. */
export interface TraceSpanRow {
  spanId: string;
  /** The invoke_agent span's id for a child span; absent for the run's own span. */
  parentSpanId?: string;
  name: string;
  /** gen_ai.operation.name: invoke_agent, chat or execute_tool. */
  operation: string;
  /** loop_lab.iteration: the turn. */
  turn?: number;
  /** http.request.resend_count: a chat span's retry number. */
  resendCount?: number;
  /** Status ERROR (OTLP code 2). */
  error: boolean;
  /** error.type, when the span failed. */
  errorType?: string;
  statusMessage?: string;
  /** The retry waits this span carries (its retry_scheduled span events' loop_lab.wait_ms). */
  waitsMs: number[];
}

function valueOf(attributes: KeyValue[] | undefined, key: string): string | number | boolean | undefined {
  const v = attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return v.boolValue;
}

const asNumber = (v: unknown) => (typeof v === 'number' ? v : undefined);
const asString = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The export's spans in start order (the run's span first), each as the page lists it. */
export function traceSpanRows(otlp: unknown): TraceSpanRow[] {
  const request = otlp as TraceRequest;
  const spans = (request.resourceSpans ?? []).flatMap((r) =>
    (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []),
  );
  const start = (s: Span) => BigInt(s.startTimeUnixNano);
  const ordered = spans
    .map((span, i) => ({ span, i }))
    .sort((x, y) => {
      // The run's own span first; then by start time, ties in export order.
      if (!x.span.parentSpanId !== !y.span.parentSpanId) return x.span.parentSpanId ? 1 : -1;
      const d = start(x.span) - start(y.span);
      return d === 0n ? x.i - y.i : d < 0n ? -1 : 1;
    })
    .map(({ span }) => span);
  return ordered.map((span) => {
    const errorType = asString(valueOf(span.attributes, 'error.type'));
    const turn = asNumber(valueOf(span.attributes, 'loop_lab.iteration'));
    const resendCount = asNumber(valueOf(span.attributes, 'http.request.resend_count'));
    return {
      spanId: span.spanId,
      ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
      name: span.name,
      operation: asString(valueOf(span.attributes, 'gen_ai.operation.name')) ?? '',
      ...(turn !== undefined ? { turn } : {}),
      ...(resendCount !== undefined ? { resendCount } : {}),
      error: span.status?.code === 2,
      ...(errorType !== undefined ? { errorType } : {}),
      ...(span.status?.message ? { statusMessage: span.status.message } : {}),
      waitsMs: (span.events ?? [])
        .filter((e) => e.name === 'retry_scheduled')
        .map((e) => asNumber(valueOf(e.attributes, 'loop_lab.wait_ms')))
        .filter((w): w is number => w !== undefined),
    };
  });
}
