import type { ToolCallPart } from '@/lib/protocol';

export type ParsedArgs = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

function preview(text: string): string {
  return text.length > 120
    ? `${JSON.stringify(text.slice(0, 120))}… (${text.length} chars)`
    : JSON.stringify(text);
}

/**
 * The call's arguments as an object. Empty text means no arguments; anything else must be a
 * JSON object, and the error quotes what arrived so the model can see what went wrong.
 */
export function parseCallArgs(call: ToolCallPart): ParsedArgs {
  if (call.args) return { ok: true, args: call.args };
  const text = call.argsText.trim();
  if (text === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `the arguments are not valid JSON (${why}). Received ${preview(call.argsText)}`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, error: `the arguments must be a JSON object, received ${kind}: ${preview(text)}` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

/** True when the argument text is complete JSON (a round cut at the length cap may leave it half-written). */
export function argsTextParses(call: ToolCallPart): boolean {
  if (call.args) return true;
  try {
    const value: unknown = JSON.parse(call.argsText);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
