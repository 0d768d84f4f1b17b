import type { Credential, RedactedThinkingPart, Vendor } from '@/lib/protocol';

/**
 * Who may receive an opaque reasoning credential: exactly the vendor and model that minted
 * it. 'anthropic' and 'sim-anthropic' are different minters (a real signature never goes
 * to the simulator and vice versa), and a fallback model rejects its sibling's signatures.
 */
export function isMintedBy(options: {
  credential: Pick<Credential, 'vendor' | 'model'>;
  vendor: Vendor;
  model: string;
}): boolean {
  const { credential, vendor, model } = options;
  return credential.vendor === vendor && credential.model === model;
}

/** A redacted block carries its minter inline rather than in a credential. */
export function redactedMinter(part: RedactedThinkingPart): Pick<Credential, 'vendor' | 'model'> {
  return { vendor: part.vendor, model: part.model };
}

/** `sim-anthropic/claude-sim-sonnet`, the form report entries use. */
export function describeMinter(minter: Pick<Credential, 'vendor' | 'model'>): string {
  return `${minter.vendor}/${minter.model}`;
}
