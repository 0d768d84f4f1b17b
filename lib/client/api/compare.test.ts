import { describe, expect, it } from 'vitest';
import { followStep } from './compare';

describe('following a live side of a comparison', () => {
  it('folds a burst of events into one re-read a little later', () => {
    const delta = { event: 'content_delta', seq: 40 };
    expect(followStep(delta, false)).toEqual({ close: false, refresh: 'soon', endMs: null });
    expect(followStep(delta, true)).toEqual({ close: false, refresh: 'none', endMs: null });
  });

  it('reads the terminate at once, even with a re-read already waiting, and stops following', () => {
    const end = { event: 'terminate', seq: 120, ts: 8_250, reason: 'end_turn' };
    // The terminate's own run time comes with it: the page stops that side's clock there at once.
    expect(followStep(end, false)).toEqual({ close: true, refresh: 'now', endMs: 8_250 });
    expect(followStep(end, true)).toEqual({ close: true, refresh: 'now', endMs: 8_250 });
    expect(followStep({ event: 'terminate', seq: 3 }, false)).toEqual({
      close: true,
      refresh: 'now',
      endMs: null,
    });
    // A message that was not JSON (the reader hands it on as undefined) is not an end.
    expect(followStep(undefined, false)).toEqual({ close: false, refresh: 'soon', endMs: null });
  });
});
