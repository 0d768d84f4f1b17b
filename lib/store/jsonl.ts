import { randomUUID } from 'node:crypto';
import { foldTotals, type RunEvent } from '@/lib/protocol';
import { eventPages } from './event-pages';
import { splitJsonl, capErrors, type ParsedTrace } from './jsonl-lines';
import { parseOwnEvents } from './parse-own-events';
import { importedConfig, parseTracerLines } from './parse-tracer-lines';
import type { RunStore } from './run-store';

export type { ParsedTrace } from './jsonl-lines';

/** One event a line, exactly as stored: greppable, diffable, and importable again. */
export function toJsonl(events: readonly RunEvent[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

export interface ExportRunOptions {
  store: RunStore;
  runId: string;
}

/** A run's log as JSONL, or undefined when the store has no such run: each row's JSON as stored. */
export async function exportRunJsonl({ store, runId }: ExportRunOptions): Promise<string | undefined> {
  if (!(await store.getRun(runId))) return undefined;
  let text = '';
  for await (const page of eventPages(store, { runId })) text += jsonlOf(page);
  return text;
}

/**
 * The same JSONL as a byte stream that reads the store a page at a time as its reader pulls
 * (GET /api/runs/{id}/trace): a long log is never held whole, as objects or as text.
 * Undefined when the store has no such run.
 */
export async function runJsonlStream({
  store,
  runId,
}: ExportRunOptions): Promise<ReadableStream<Uint8Array> | undefined> {
  if (!(await store.getRun(runId))) return undefined;
  const pages = eventPages(store, { runId });
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pages.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(jsonlOf(next.value)));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** Stored rows as JSONL lines: each body is the event's JSON as it was appended. */
const jsonlOf = (rows: readonly { body: string }[]): string => rows.map((row) => `${row.body}\n`).join('');

export interface ParseJsonlOptions {
  text: string;
  /** The id the imported run gets. */
  runId: string;
}

/**
 * Reads either format without touching the store: Loop Lab's own log (its first line is a
 * run_start with a seq) or a plain tracer's lines. Errors name their line.
 */
export function parseJsonl({ text, runId }: ParseJsonlOptions): ParsedTrace {
  const { lines, errors } = splitJsonl(text);
  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };
  if (lines.length === 0)
    return { ok: false, errors: ['the file is empty: expected one JSON object a line'] };
  const head = lines[0]!.value;
  const own = head.event === 'run_start' && typeof head.seq === 'number';
  return own ? parseOwnEvents({ lines, runId }) : parseTracerLines({ lines, runId });
}

/** Structural secret redaction (lib/runtime/redact-secrets.ts createRedactor), given by the caller. */
export interface ImportRedactor {
  value<T>(value: T): T;
}

export interface ImportJsonlOptions {
  store: RunStore;
  text: string;
  /**
   * Applied to every parsed event before anything is stored: a trace written elsewhere can
   * carry the server's own keys verbatim (a vendor's error body quoting it, a header logged).
   */
  redactor: ImportRedactor;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

export type ImportResult = { ok: true; id: string } | { ok: false; errors: string[] };

/**
 * Parses a JSONL file and stores it, secrets redacted, as a new, imported run (all or nothing).
 * The one path of both imports (a JSONL file, an OTLP trace converted to one): an imported log
 * has no run log, so its totals are folded here, once over the whole log, for the runs row.
 */
export async function importJsonl({
  store,
  text,
  createdAt,
  redactor,
}: ImportJsonlOptions): Promise<ImportResult> {
  const id = randomUUID();
  const parsed = parseJsonl({ text, runId: id });
  if (!parsed.ok) return parsed;
  const events = parsed.events.map((event) => redactor.value(event));
  const start = events[0];
  const config = start?.event === 'run_start' ? start.config : importedConfig();
  await store.createRun({ id, config, createdAt, imported: true, events, totals: foldTotals(events) });
  return { ok: true, id };
}
