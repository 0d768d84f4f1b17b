import { describe, expect, it } from 'vitest';
import { retryWaitWords } from './retry-wait-words';

describe('retryWaitWords', () => {
  it('says nothing while the next request has not gone out', () => {
    expect(retryWaitWords({ waitMs: 2000 })).toBeUndefined();
  });

  it('says the wait when the next request went out when it was due', () => {
    expect(retryWaitWords({ waitMs: 3900, actualWaitMs: 3904 })).toBe('waited 3.9 s');
  });

  it('never puts "waited 1.5 s" beside a retry made at once: both times are said', () => {
    const words = retryWaitWords({ waitMs: 0, actualWaitMs: 1500 });
    expect(words).toBe("next request 1.5 s later (no wait scheduled; the rest was the loop's own work)");
    expect(words).not.toMatch(/^waited/);
  });

  it('names a scheduled wait that the next request came well after', () => {
    expect(retryWaitWords({ waitMs: 1000, actualWaitMs: 2600 })).toBe(
      "next request 2.6 s later (a wait of 1 s scheduled; the rest was the loop's own work)",
    );
  });
});
