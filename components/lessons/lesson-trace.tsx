'use client';

import { useQuery } from '@tanstack/react-query';
import { traceSpanRows, type TraceSpanRow } from '@/lib/client/explain/trace-spans';
import type { LessonSide } from '@/lib/lessons';

/** The OTLP export of a run, as its run page's OTLP link serves it. */
export function otelUrl(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/otel`;
}

/**
 * Both sides' traces, span by span, read from each run's own OTLP export: the spans a lesson's
 * claims are about, on the page, so each claim can be checked without the download.
 */
export function LessonTrace({ on, off }: { on: string; off: string }) {
  return (
    <div data-testid="lesson-trace">
      <h2 className="text-2xs font-semibold uppercase tracking-wide text-muted">
        The trace, span by span (each run’s OTLP export)
      </h2>
      <div className="mt-1 grid gap-2 md:grid-cols-2">
        <SideTrace side="on" runId={on} />
        <SideTrace side="off" runId={off} />
      </div>
    </div>
  );
}

function SideTrace({ side, runId }: { side: LessonSide; runId: string }) {
  const trace = useQuery({
    queryKey: ['otel', runId],
    queryFn: async () => {
      const response = await fetch(otelUrl(runId));
      if (!response.ok) throw new Error(`GET ${otelUrl(runId)}: ${response.status}`);
      return traceSpanRows(await response.json());
    },
  });
  return (
    <section className="min-w-0 text-2xs" data-testid={`lesson-trace-${side}`}>
      <div className="flex items-baseline justify-between gap-2">
        <span className={`font-semibold ${side === 'on' ? 'text-ok' : 'text-fail'}`}>Mechanism {side}</span>
        <a href={otelUrl(runId)} download className="text-takeover underline">
          OTLP/JSON
        </a>
      </div>
      {trace.data ? (
        <TraceTable rows={trace.data} />
      ) : trace.error ? (
        <p className="text-fail">{trace.error.message}</p>
      ) : (
        <p className="text-muted">reading the trace…</p>
      )}
    </section>
  );
}

/** One line a span: the run's span, then its children in start order, each with what a tracing tool shows of it. */
export function TraceTable({ rows }: { rows: TraceSpanRow[] }) {
  return (
    <table className="mt-1 w-full font-mono">
      <thead>
        <tr className="text-left text-muted">
          <th className="py-0.5 pr-2 font-normal">span</th>
          <th className="pr-2 font-normal">turn</th>
          <th className="pr-2 font-normal" title="http.request.resend_count">
            resend
          </th>
          <th className="pr-2 font-normal">status</th>
          <th className="font-normal">events carried</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.spanId}
            className="border-t border-line align-top"
            data-testid="trace-span"
            data-operation={row.operation}
            data-turn={row.turn ?? ''}
            data-resend={row.resendCount ?? ''}
            data-status={row.error ? 'ERROR' : 'UNSET'}
            data-error-type={row.errorType ?? ''}
            data-parent={row.parentSpanId ?? ''}
            data-span-id={row.spanId}
          >
            <td className={`py-0.5 pr-2 ${row.parentSpanId ? 'pl-3' : ''}`}>{row.name}</td>
            <td className="pr-2">{row.turn ?? ''}</td>
            <td className="pr-2">{row.resendCount ?? ''}</td>
            <td className={`pr-2 ${row.error ? 'text-fail' : 'text-muted'}`}>
              {row.error ? `ERROR${row.errorType ? ` ${row.errorType}` : ''}` : 'unset'}
              {row.error && row.statusMessage && !row.parentSpanId && (
                <span className="block whitespace-normal font-sans">{row.statusMessage}</span>
              )}
            </td>
            <td data-testid="trace-span-waits">
              {row.waitsMs.map((ms) => `retry_scheduled: wait ${(ms / 1000).toFixed(1)} s`).join('; ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
