import { describe, expect, it } from 'vitest';
import { redactPieces } from './redact-pieces';

describe('redactPieces', () => {
  const key = 'sk-canary-ENV-0123456789abcdef';
  it('removes a key split across two stream records, which a whole-key search misses', () => {
    const body = `data: {"delta":{"text":"the key is ${key.slice(0, 17)}"}}\n\ndata: {"delta":{"text":"${key.slice(17)}"}}\n\n`;
    const out = redactPieces(body, [key]);
    expect(out).not.toContain(key.slice(0, 17));
    expect(out).not.toContain(key.slice(17));
    expect(out).toContain('the key is [redacted]');
  });
  it('removes a key written backwards, whole or split across two records', () => {
    const backwards = [...key].reverse().join('');
    const body = `data: {"text":"${backwards}"}\n\ndata: {"text":"${backwards.slice(0, 12)}"}\n\ndata: {"text":"${backwards.slice(12)}"}\n\n`;
    const out = redactPieces(body, [key]);
    for (const piece of [backwards.slice(0, 12), backwards.slice(12), 'fedcba9876']) expect(out).not.toContain(piece);
    expect(out).toBe('data: {"text":"[redacted]"}\n\ndata: {"text":"[redacted]"}\n\ndata: {"text":"[redacted]"}\n\n');
  });
  it('leaves a text with no piece of a key, and short or snake_case secrets, as it was', () => {
    const body = 'data: {"delta":{"text":"nothing to see"}}\n\n';
    expect(redactPieces(body, [key])).toBe(body);
    expect(redactPieces('tool_use and run_check', ['short', 'tool_use_and_run_check'])).toBe('tool_use and run_check');
  });
});

describe('redactPieces with public names kept', () => {
  const key = 'sk-test-claude-sim-sonnet-7f3a9c2e41';
  it('keeps a model name that shares pieces with a key, and removes a piece that runs past it', () => {
    const body = '{"model":"claude-sim-sonnet","text":"echo claude-sim-sonnet-7f3a9c2e41"}';
    expect(redactPieces(body, [key], ['claude-sim-sonnet'])).toBe('{"model":"claude-sim-sonnet","text":"echo [redacted]"}');
    expect(redactPieces(body, [key])).toBe('{"model":"[redacted]","text":"echo [redacted]"}');
  });
});
