/**
 * The vendors and their wire formats, without a schema: what the browser's first load needs
 * (the playground's pickers, isSimulated) stays free of zod. config.ts builds VendorSchema from
 * VENDORS, so the list is written once.
 */
export const VENDORS = [
  'sim-anthropic',
  'sim-openai',
  'sim-deepseek',
  'sim-openai-responses',
  'anthropic',
  'openai',
  'openai-compatible',
  'openai-responses',
] as const;

/** Where a run's model traffic goes. Simulated vendors need no key and no network. */
export type Vendor = (typeof VENDORS)[number];

/** A string the page read from a select, as a vendor (undefined: it names none). */
export function asVendor(value: string): Vendor | undefined {
  return (VENDORS as readonly string[]).includes(value) ? (value as Vendor) : undefined;
}

/**
 * Which wire format a vendor speaks: Anthropic Messages, OpenAI Chat Completions (and the
 * servers that copy it), or OpenAI's Responses API (its error bodies are OpenAI's).
 */
export type Dialect = 'anthropic' | 'openai' | 'responses';
export function dialectOf(vendor: Vendor): Dialect {
  if (vendor === 'sim-anthropic' || vendor === 'anthropic') return 'anthropic';
  return vendor === 'sim-openai-responses' || vendor === 'openai-responses' ? 'responses' : 'openai';
}
export function isSimulated(vendor: Vendor): boolean {
  return (
    vendor === 'sim-anthropic' ||
    vendor === 'sim-openai' ||
    vendor === 'sim-deepseek' ||
    vendor === 'sim-openai-responses'
  );
}
