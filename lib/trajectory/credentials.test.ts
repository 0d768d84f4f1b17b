import { describe, expect, it } from 'vitest';
import { isMintedBy } from './credentials';

describe('isMintedBy', () => {
  it('binds a credential to one vendor and one model', () => {
    const credential = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' };
    expect(isMintedBy({ credential, vendor: 'sim-anthropic', model: 'claude-sim-sonnet' })).toBe(true);
    expect(isMintedBy({ credential, vendor: 'anthropic', model: 'claude-sim-sonnet' })).toBe(false);
    expect(isMintedBy({ credential, vendor: 'sim-anthropic', model: 'claude-sim-haiku' })).toBe(false);
  });
});
