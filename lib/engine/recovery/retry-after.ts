/**
 * The server's wait hint, in the order the Stainless SDKs read it: `retry-after-ms`
 * (float milliseconds, OpenAI) first, then `retry-after` (seconds, or an HTTP-date).
 * Uncapped here: the caller decides how long a wait it is willing to honour.
 */
export function parseRetryAfter(options: { headers: unknown; nowMs?: number }): number | undefined {
  const read = headerReader(options.headers);
  if (!read) return undefined;

  const ms = read('retry-after-ms');
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }

  const raw = read('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number.parseFloat(raw) * 1000;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - (options.nowMs ?? Date.now()));
}

/** Headers from a fetch `Headers`, a plain record, or nothing (case-insensitive names). */
function headerReader(headers: unknown): ((name: string) => string | undefined) | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function') {
    return (name) => (headers as Headers).get(name) ?? undefined;
  }
  const entries = Object.entries(headers as Record<string, unknown>);
  return (name) => {
    const hit = entries.find(([key]) => key.toLowerCase() === name);
    const value = hit?.[1];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  };
}
