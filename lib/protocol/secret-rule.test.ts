import { describe, expect, it } from 'vitest';
import { redactPieces } from '@/lib/cassettes/redact-pieces';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { secretsOf, spelledKeys } from './secret-rule';

const KEY = 'sk-ant-api03-Zq7xW2pLm9Kd4Rt8';

describe('what is a secret: one rule, read by both redactions', () => {
  it('spells each secret worth seeking as is and backwards, once; short keys and protocol words are none', () => {
    expect(spelledKeys([KEY, ` ${KEY} `, 'ollama', 'tool_call_budget_exhausted', undefined])).toEqual([
      KEY,
      [...KEY].reverse().join(''),
    ]);
  });

  it('takes the key sent, vendor key variables, variables named like keys, and the parts of a broken key', () => {
    const env = {
      VENDOR_KEY: 'vvvvvvvvvvvvvvvvvvvv',
      GITHUB_ACCESS_TOKEN: 'gggggggggggggggggggg',
      HOME: '/home/someone/with/a/long/path',
    };
    expect(secretsOf({ apiKey: `${KEY}\nsecond-half-0000`, env, keyVars: ['VENDOR_KEY'] })).toEqual([
      `${KEY}\nsecond-half-0000`,
      KEY,
      'second-half-0000',
      'vvvvvvvvvvvvvvvvvvvv',
      'gggggggggggggggggggg',
    ]);
  });

  it('the run log and a recording remove the same spellings and leave the same non-secrets', () => {
    const secrets = runSecrets({ apiKey: KEY, env: { SHORT_API_KEY: 'ollama' } });
    const log = createRedactor({ secrets });
    const text = `a ${KEY} b ${[...KEY].reverse().join('')} c ollama`;
    expect(log.text(text)).toBe('a [redacted] b [redacted] c ollama');
    expect(redactPieces(text, secrets)).toBe('a [redacted] b [redacted] c ollama');
  });
});
