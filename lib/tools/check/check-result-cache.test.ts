import { describe, expect, it } from 'vitest';
import { fixFailingTest } from '../scenarios/fix-failing-test';
import { CheckResultCache } from './check-result-cache';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits';
import type { SandboxOutcome } from './run-sandboxed';

const files = { ...fixFailingTest.files };
const entries = ['test/slugify.test.js'];
const report = (ok: boolean, timedOut = false): SandboxOutcome => ({
  kind: 'report',
  report: {
    registered: 1,
    results: [{ name: 't', file: 'test/t.test.js', ok }],
    loadErrors: [],
    logs: [],
    timedOut,
  },
});

describe('CheckResultCache', () => {
  it('keys a check by every byte of its input: one changed character, entry or limit is another check', () => {
    const key = CheckResultCache.key({ files, entries, limits: DEFAULT_SANDBOX_LIMITS });
    // The order files were written in does not matter; their contents do.
    const reordered = Object.fromEntries(Object.entries(files).reverse());
    expect(CheckResultCache.key({ files: reordered, entries, limits: DEFAULT_SANDBOX_LIMITS })).toBe(key);
    const edited = { ...files, 'src/slugify.js': `${files['src/slugify.js']} ` };
    expect(CheckResultCache.key({ files: edited, entries, limits: DEFAULT_SANDBOX_LIMITS })).not.toBe(key);
    expect(
      CheckResultCache.key({ files, entries: [...entries, 'x.js'], limits: DEFAULT_SANDBOX_LIMITS }),
    ).not.toBe(key);
    expect(
      CheckResultCache.key({ files, entries, limits: { ...DEFAULT_SANDBOX_LIMITS, timeMs: 1 } }),
    ).not.toBe(key);
    // A path and its text cannot be shifted into one another.
    expect(CheckResultCache.key({ files: { a: 'bc' }, entries, limits: DEFAULT_SANDBOX_LIMITS })).not.toBe(
      CheckResultCache.key({ files: { ab: 'c' }, entries, limits: DEFAULT_SANDBOX_LIMITS }),
    );
  });

  it('keeps full reports only: anything the sandbox stopped runs again next time', () => {
    const cache = new CheckResultCache(10);
    cache.set('pass', report(true));
    cache.set('fail', report(false));
    cache.set('slow', report(true, true));
    const stopped: SandboxOutcome[] = [
      { kind: 'time_limit', limitMs: 1, clock: 'cpu' },
      { kind: 'wall_backstop', backstopMs: 1, tries: 3 },
      { kind: 'memory_limit', limitMb: 1 },
      { kind: 'crashed', detail: 'x' },
      { kind: 'aborted' },
    ];
    for (const outcome of stopped) cache.set(outcome.kind, outcome);
    expect(cache.get('pass')).toEqual(report(true));
    expect(cache.get('fail')).toEqual(report(false));
    expect(
      ['slow', 'time_limit', 'wall_backstop', 'memory_limit', 'crashed', 'aborted'].map((k) => cache.get(k)),
    ).toEqual(Array(6).fill(undefined));
    expect(cache.size).toBe(2);
  });

  it('holds at most maxEntries, dropping the least recently used', () => {
    const cache = new CheckResultCache(2);
    cache.set('a', report(true));
    cache.set('b', report(true));
    cache.get('a');
    cache.set('c', report(true));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(2);
  });
});
