import { createHash } from 'node:crypto';
import { REDACTED } from '@/lib/protocol/secret-rule';

/**
 * What a request is matched on: the parts that decide the model's answer — the model, the
 * system prompt (`system`, or `instructions`), the conversation (`messages`, or `input`) and
 * the tools — read from the dialect request body by name, so every dialect's body works. The
 * output cap, sampling and streaming options are left out: a retry with a raised cap still asks
 * the same question.
 */
export interface WhatMatters {
  model: unknown;
  system: unknown;
  messages: readonly unknown[];
  tools: readonly unknown[];
}

export function whatMatters(body: string): WhatMatters {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(body);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // Not JSON: matched on nothing but the empty parts (and so only to another such body).
  }
  const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
  return {
    model: parsed.model ?? null,
    system: parsed.system ?? parsed.instructions ?? null,
    messages: list(parsed.messages ?? parsed.input),
    tools: list(parsed.tools),
  };
}

/** The fingerprint of what matters: equal for two requests exactly when model, system, messages and tools are equal. */
export function fingerprint(body: string): string {
  return createHash('sha256').update(canonical(whatMatters(body))).digest('hex');
}

/** What matters of a body as one canonical text (what the fingerprint hashes). */
export function canonicalMatters(body: string): string {
  return canonical(whatMatters(body));
}

/** Does the recorded text hold what the recording removed (a key, or a piece of one)? Only then can a request match it under its redaction. */
export function holdsRedaction(recorded: string): boolean {
  return recorded.includes(REDACTED);
}

/**
 * Is `recorded` what `sent` becomes under the recording's redaction? The recording replaced each
 * key it knew, and each piece of one at least MIN_PIECE long, with `[redacted]` — also where a
 * piece of a key was ordinary request text (a model's name, a word of the prompt). The replay
 * may not know those keys (another machine), so it cannot redact the live request itself; it
 * asks instead whether some non-empty text at each `[redacted]` of the recorded request, and
 * exactly the recorded text everywhere else, gives the live one. A request that differs
 * anywhere the recording kept still differs.
 */
export function matchesUnderRedaction(sent: string, recorded: string): boolean {
  if (sent === recorded) return true;
  const parts = recorded.split(REDACTED);
  if (parts.length === 1) return false;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (!sent.startsWith(first) || !sent.endsWith(last)) return false;
  const end = sent.length - last.length;
  // Each literal part at its leftmost place after at least one removed character: if any
  // placement fits, this one does (it leaves the most room for what follows).
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = sent.indexOf(part, at + 1);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return end - at >= 1;
}

/** JSON with every object's keys sorted, so key order never changes a fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What differs between a request and the recorded one, in words: the first part that differs,
 * and for the conversation the first message that does (its position and role) — each compared
 * under the recording's redaction, so a name the recording hid is not called a difference.
 */
export function describeDifference(sent: string, recorded: string): string {
  const a = whatMatters(sent);
  const b = whatMatters(recorded);
  const same = (x: unknown, y: unknown): boolean => matchesUnderRedaction(canonical(x), canonical(y));
  const parts: string[] = [];
  if (!same(a.model, b.model)) parts.push(`model ${String(a.model)} sent, ${String(b.model)} recorded`);
  if (!same(a.system, b.system)) parts.push('the system prompt differs');
  if (!same(a.tools, b.tools)) parts.push(`tools differ (${toolNames(a.tools)} sent; ${toolNames(b.tools)} recorded)`);
  if (!same(a.messages, b.messages)) {
    const n = Math.min(a.messages.length, b.messages.length);
    let i = 0;
    while (i < n && same(a.messages[i], b.messages[i])) i += 1;
    const where = i < n ? `first difference at message ${i + 1} (${roleOf(a.messages[i])})` : `the first ${n} agree`;
    parts.push(`messages: ${a.messages.length} sent, ${b.messages.length} recorded; ${where}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'nothing that matters differs';
}

function roleOf(message: unknown): string {
  const role = message !== null && typeof message === 'object' ? (message as { role?: unknown; type?: unknown }).role ?? (message as { type?: unknown }).type : undefined;
  return typeof role === 'string' ? role : 'no role';
}

function toolNames(tools: readonly unknown[]): string {
  const names = tools.map((t) => {
    const tool = t as { name?: unknown; function?: { name?: unknown } } | null;
    const name = tool?.name ?? tool?.function?.name;
    return typeof name === 'string' ? name : '?';
  });
  return names.length > 0 ? names.join(', ') : 'none';
}
