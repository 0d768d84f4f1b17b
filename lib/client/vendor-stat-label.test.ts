import { describe, expect, it } from 'vitest';
import type { CallResultView } from './run-view-state';
import { vendorStatLabel } from './vendor-stat-label';

const result = (vendor: string, model: string): CallResultView => ({ ts: 1, stopReason: 'end_turn', inputTokens: 10, outputTokens: 5, latencyMs: 100, partial: false, vendor, model });
const sonnet = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' };

describe('vendorStatLabel', () => {
  it('says "last asked", not "last answered by", for a run whose every attempt failed (retry budget exhausted on turn 1)', () => {
    expect(vendorStatLabel({ status: 'failed', ...sonnet, turns: [{}] })).toBe('last asked');
  });

  it('says "last asked" after a takeover whose new vendor never answered', () => {
    const turns = [{ result: result('sim-anthropic', 'claude-sim-sonnet') }, {}];
    expect(vendorStatLabel({ status: 'failed', vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner', turns })).toBe('last asked');
  });

  it('says "last answered by" when the vendor shown gave the newest kept response, and "answering now" while the run lives', () => {
    const turns = [{ result: result('sim-anthropic', 'claude-sim-sonnet') }];
    expect(vendorStatLabel({ status: 'done', ...sonnet, turns })).toBe('last answered by');
    expect(vendorStatLabel({ status: 'waiting', ...sonnet, turns: [] })).toBe('answering now');
  });
});
