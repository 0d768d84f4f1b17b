/**
 * The vendors and their wire formats, without a schema: what the browser's first load needs
 * (the playground's pickers, isSimulated) stays free of zod. config.ts builds VendorSchema from
 * VENDORS, so the list is written once.
 */
export const VENDORS = ['sim-anthropic', 'sim-openai', 'sim-deepseek', 'anthropic', 'openai', 'openai-compatible'] as const;

/** Where a run's model traffic goes. Simulated vendors need no key and no network. */
export type Vendor = (typeof VENDORS)[number];

/** A string the page read from a select, as a vendor (undefined: it names none). */
export function asVendor(value: string): Vendor | undefined {
  return (VENDORS as readonly string[]).includes(value) ? (value as Vendor) : undefined;
}

/** Which wire format a vendor speaks. */
export type Dialect = 'anthropic' | 'openai';
export function dialectOf(vendor: Vendor): Dialect {
  return vendor === 'sim-anthropic' || vendor === 'anthropic' ? 'anthropic' : 'openai';
}
export function isSimulated(vendor: Vendor): boolean {
  return vendor === 'sim-anthropic' || vendor === 'sim-openai' || vendor === 'sim-deepseek';
}
