import { describe, expect, it } from 'vitest';
import { presetPolicy, resolveRecovery } from '@/lib/protocol';
import { parsePolicyText } from './policy-text';
import { countOverrides } from './recovery-fields';

describe('the retry-policy editor’s text', () => {
  it('a preset’s policy as JSON reads back as itself; empty text is no policy', () => {
    const policy = presetPolicy(resolveRecovery('s11'));
    expect(parsePolicyText(JSON.stringify(policy, null, 2))).toEqual({ policy });
    expect(parsePolicyText('  ')).toEqual({});
  });

  it('bad text says what to fix, where', () => {
    expect(parsePolicyText('{"foreground":').error).toMatch(/^not JSON: /);
    const policy = presetPolicy(resolveRecovery('codesmith'));
    const bad = {
      ...policy,
      foreground: { ...policy.foreground, rows: { rate_limit: { action: 'sometimes' } } },
    };
    expect(parsePolicyText(JSON.stringify(bad)).error).toMatch(/^foreground\.rows\.rate_limit\.action: /);
    const emptyChain = { ...policy, fallback: { enabled: true, afterOverloads: 3, chain: [] } };
    expect(parsePolicyText(JSON.stringify(emptyChain)).error).toBe(
      'fallback.chain: fallback is on but the chain is empty: name at least one model (model "" is the vendor’s fallback)',
    );
  });

  it('a policy of its own counts as one override beside the fields', () => {
    const policy = presetPolicy(resolveRecovery('s11'));
    expect(countOverrides({ policy, retry: { maxRetries: 1 } })).toBe(2);
  });
});
