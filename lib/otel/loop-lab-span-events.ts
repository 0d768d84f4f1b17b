import type { Attributes, Span } from '@opentelemetry/api';
import type { RunEvent } from '@/lib/protocol';
import { attributeOf, type OtlpSpan } from './otlp-json-schema';

/**
 * Loop Lab's own events inside its OTLP export, so the export re-imports as the run it was:
 * every event of the log is a span event on the span it belongs to (a model attempt's on its
 * `chat` span, a tool call's on its `execute_tool` span, the rest — run_start with the config,
 * turns, context steps, terminate — on the `invoke_agent` span), named after the event, with
 * the event itself as JSON in the `loop_lab.event` attribute. An OTLP backend shows them as
 * span events; the import reads them back in seq order.
 */
export const LOOP_LAB_EVENT = 'loop_lab.event';

/** Adds one event of the log to a span, at its own time (a retry's wait also as plain attributes, for any viewer). */
export function recordEvent(span: Span, event: RunEvent, time: number): void {
  const attributes: Attributes = { [LOOP_LAB_EVENT]: JSON.stringify(event) };
  if (event.event === 'retry_scheduled') {
    Object.assign(attributes, {
      'loop_lab.wait_ms': event.wait_ms,
      'loop_lab.next_attempt': event.next_attempt,
      'loop_lab.reason': event.reason,
    });
  }
  span.addEvent(event.event, attributes, time);
}

/**
 * The log carried by a Loop Lab export, as JSONL in seq order (each line the event as it was
 * exported), or undefined when the trace carries none (a foreign trace, or an older export).
 * Nothing is parsed as a run event here: the import validates every line as it does a JSONL file.
 */
export function ownLogOf(spans: readonly OtlpSpan[]): { jsonl: string } | { error: string } | undefined {
  const lines: { seq: number; line: string }[] = [];
  for (const span of spans) {
    for (const event of span.events ?? []) {
      const line = attributeOf(event, LOOP_LAB_EVENT);
      if (typeof line !== 'string') continue;
      let seq: unknown;
      try {
        seq = (JSON.parse(line) as { seq?: unknown }).seq;
      } catch (error) {
        return {
          error: `span "${span.name}", event "${event.name}": ${LOOP_LAB_EVENT} is not JSON (${(error as Error).message})`,
        };
      }
      if (typeof seq !== 'number')
        return { error: `span "${span.name}", event "${event.name}": ${LOOP_LAB_EVENT} has no seq` };
      lines.push({ seq, line });
    }
    if ((span.droppedEventsCount ?? 0) > 0)
      return {
        error: `span "${span.name}" dropped ${span.droppedEventsCount} of its events: the run cannot be read back whole`,
      };
  }
  if (lines.length === 0) return undefined;
  lines.sort((a, b) => a.seq - b.seq);
  return { jsonl: lines.map((l) => l.line).join('\n') + '\n' };
}
