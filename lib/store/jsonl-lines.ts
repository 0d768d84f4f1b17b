import { MAX_EVENT_DEPTH, parseJsonWithin, type RunEvent } from '@/lib/protocol';

/** One non-blank line of a JSONL file, parsed, with its 1-based line number. */
export interface JsonlLine {
  line: number;
  value: Record<string, unknown>;
}

/** Parse outcome for an import: events ready to store, or every problem found, by line. */
export type ParsedTrace = { ok: true; events: RunEvent[] } | { ok: false; errors: string[] };

/** Enough errors to fix a file without flooding the response. */
export const MAX_LINE_ERRORS = 20;

/** Splits JSONL text into parsed objects; blank lines are skipped, bad ones reported. */
export function splitJsonl(text: string): { lines: JsonlLine[]; errors: string[] } {
  const lines: JsonlLine[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const parsed = parseJsonWithin(trimmed, MAX_EVENT_DEPTH);
    if (!parsed.ok) {
      errors.push(
        parsed.tooDeep === undefined
          ? `line ${line}: not valid JSON (${parsed.syntax})`
          : `line ${line}: nested deeper than ${MAX_EVENT_DEPTH} levels at ${parsed.tooDeep}; flatten it`,
      );
      return;
    }
    const value = parsed.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.push(
        `line ${line}: expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
      );
      return;
    }
    lines.push({ line, value: value as Record<string, unknown> });
  });
  return { lines, errors };
}

/** Caps an error list, saying how many more there were. */
export function capErrors(errors: string[]): string[] {
  if (errors.length <= MAX_LINE_ERRORS) return errors;
  return [...errors.slice(0, MAX_LINE_ERRORS), `… and ${errors.length - MAX_LINE_ERRORS} more`];
}
