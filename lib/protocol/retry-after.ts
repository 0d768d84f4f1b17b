/**
 * The server's wait hint, in the order the Stainless SDKs read it: `retry-after-ms` (milliseconds,
 * OpenAI) first, then `retry-after` (whole or fractional seconds, or an HTTP-date). The one
 * reading of it: the engine's classifier, the SDK retry layer and a sweep's endpoint gate all
 * call this. A value is read only when it is what the header's grammar allows after trimming:
 * plain decimal digits (no sign, hex or exponent) or a date naming its month; anything else
 * counts as absent, so an empty `retry-after-ms` leaves `retry-after` to speak. An HTTP-date is
 * measured against `nowMs`, the caller's clock (never read here), and is never negative.
 * Uncapped: the caller decides how long a wait it is willing to honour.
 */
export function parseRetryAfter(options: { headers: unknown; nowMs: number }): number | undefined {
  const read = headerReader(options.headers);
  if (!read) return undefined;

  const ms = read('retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Number(ms);

  const raw = read('retry-after')?.trim();
  if (!raw) return undefined;
  if (DECIMAL.test(raw)) return Number(raw) * 1000;
  if (!MONTH.test(raw)) return undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - options.nowMs);
}

/** A non-negative decimal number as the header's grammar writes it: digits, an optional fraction. */
const DECIMAL = /^\d+(\.\d+)?$/;
/** An HTTP-date names its month (IMF-fixdate, RFC 850 and asctime all do); `Date.parse` alone takes `-5` or `0x10`-like text as dates. */
const MONTH = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\b/i;

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
