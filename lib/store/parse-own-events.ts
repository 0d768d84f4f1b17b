import { foldTotals, safeParseEvent, terminateAfter, type RunEvent } from '@/lib/protocol';
import { capErrors, type JsonlLine, type ParsedTrace } from './jsonl-lines';

export interface ParseOwnEventsOptions {
  lines: readonly JsonlLine[];
  /** The id the imported run gets; every event is re-stamped with it. */
  runId: string;
}

/**
 * Loop Lab's own export read back: each line validated as a run event, re-stamped with the
 * new run id and renumbered from 0 (a hand-edited file may have dropped lines). A log cut
 * off before its terminate still ends with one, so every stored log is well formed.
 */
export function parseOwnEvents({ lines, runId }: ParseOwnEventsOptions): ParsedTrace {
  const errors: string[] = [];
  const events: RunEvent[] = [];
  let terminateLine: number | undefined;
  for (const { line, value } of lines) {
    const parsed = safeParseEvent(value);
    if (!parsed.ok) {
      errors.push(`line ${line}: not a valid Loop Lab event (${parsed.error})`);
      continue;
    }
    const event = parsed.event;
    if (events.length === 0 && errors.length === 0 && event.event !== 'run_start') {
      errors.push(`line ${line}: a Loop Lab log must begin with run_start, found ${event.event}`);
    } else if (event.event === 'run_start' && (events.length > 0 || errors.length > 0)) {
      errors.push(`line ${line}: a second run_start; import one run per file`);
    } else if (terminateLine !== undefined) {
      errors.push(`line ${line}: ${event.event} after the terminate event on line ${terminateLine}`);
    }
    if (event.event === 'terminate') terminateLine ??= line;
    events.push({ ...event, run_id: runId, seq: events.length });
  }
  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };
  if (events.length === 0) return { ok: false, errors: ['the file has no events'] };
  if (terminateLine === undefined) {
    events.push(
      terminateAfter(events.at(-1), {
        runId,
        reason: 'imported',
        complete: false,
        message: 'the imported log ended without a terminate event',
        totals: foldTotals(events),
      }),
    );
  }
  return { ok: true, events };
}
