import { describe, expect, it } from 'vitest';
import { NO_TOTALS } from '@/lib/protocol';
import { encodeLog } from './encoded-log';
import { sampleRunEvents } from './sample-run.testkit';

// Storing an encoded log (the same rows as its events, nothing of one that is not whole) is part
// of the run store's contract, run on every backend: lib/store/contract/run-log.testkit.ts.
describe('a log encoded where the run was made', () => {
  it('is refused, with the store’s own words, when the events are not one run’s contiguous log', () => {
    const events = sampleRunEvents({ runId: 'r' });
    expect(() =>
      encodeLog(
        'r',
        events.filter((e) => e.seq !== 3),
        NO_TOTALS,
      ),
    ).toThrow(/run r: seq 4 breaks the contiguous batch at index 3/);
    expect(() => encodeLog('other', events, NO_TOTALS)).toThrow(/event seq 0 belongs to run r, not other/);
  });
});
