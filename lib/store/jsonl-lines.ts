import { findTooDeep, MAX_EVENT_DEPTH, type RunEvent } from '@/lib/protocol';

/** One non-blank line of a JSONL file, parsed, with its 1-based line number. */
export interface JsonlLine {
  line: number;
  value: Record<string, unknown>;
}

/** Parse outcome for an import: events ready to store, or every problem found, by line. */
export type ParsedTrace =
  | { ok: true; events: RunEvent[] }
  | { ok: false; errors: string[] };

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
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      errors.push(`line ${line}: not valid JSON (${(error as Error).message})`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.push(`line ${line}: expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
      return;
    }
    const tooDeep = findTooDeep(value, MAX_EVENT_DEPTH);
    if (tooDeep !== undefined) {
      errors.push(`line ${line}: nested deeper than ${MAX_EVENT_DEPTH} levels at ${tooDeep}; flatten it`);
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
