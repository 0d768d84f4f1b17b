import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { describe, expect, it } from 'vitest';
import { reduceRawEvent } from '../run-view/fold-raw-events';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';
import type { AttemptOutcome, CallResultView } from '@/lib/run-view/run-view-state';
import { vendorStatLabel } from './vendor-stat-label';

const result = (vendor: string, model: string): CallResultView => ({
  ts: 1,
  stopReason: 'end_turn',
  inputTokens: 10,
  outputTokens: 5,
  latencyMs: 100,
  partial: false,
  vendor,
  model,
});
const sonnet = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' };
const attempt = (
  outcome: AttemptOutcome,
  over: { background?: boolean; vendor?: string; model?: string } = {},
) => ({
  ...sonnet,
  background: false,
  outcome,
  ...(outcome === 'pending' || outcome === 'streaming' ? {} : { endTs: 5 }),
  ...over,
});

describe('vendorStatLabel', () => {
  it('says "last asked", not "last answered by", for a run whose every attempt failed (retry budget exhausted on turn 1)', () => {
    expect(vendorStatLabel({ status: 'failed', ...sonnet, turns: [{ attempts: [attempt('error')] }] })).toBe(
      'last asked',
    );
  });

  it('says "last asked" after a takeover whose new vendor never answered', () => {
    const turns = [
      { result: result('sim-anthropic', 'claude-sim-sonnet'), attempts: [attempt('ok')] },
      { attempts: [] },
    ];
    expect(
      vendorStatLabel({ status: 'failed', vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner', turns }),
    ).toBe('last asked');
  });

  it('says "last answered by" once finished when the vendor shown gave the newest kept response', () => {
    const turns = [{ result: result('sim-anthropic', 'claude-sim-sonnet'), attempts: [attempt('ok')] }];
    expect(vendorStatLabel({ status: 'done', ...sonnet, turns })).toBe('last answered by');
  });

  it('says "retrying with" during a retry wait, when nobody is answering (it said "answering now")', () => {
    const turns = [{ attempts: [attempt('error')] }];
    expect(vendorStatLabel({ status: 'waiting', ...sonnet, turns })).toBe('retrying with');
  });

  it('says "answering now" only while the response streams, and "asked, no reply yet" before its first byte', () => {
    expect(
      vendorStatLabel({ status: 'running', ...sonnet, turns: [{ attempts: [attempt('streaming')] }] }),
    ).toBe('answering now');
    expect(
      vendorStatLabel({
        status: 'running',
        ...sonnet,
        turns: [{ attempts: [attempt('streaming')] }],
        quietMs: 300,
      }),
    ).toBe('answering now');
    // A stall: the stream is open and nothing arrives (the watchdog is timing it).
    expect(
      vendorStatLabel({
        status: 'running',
        ...sonnet,
        turns: [{ attempts: [attempt('streaming')] }],
        quietMs: 12_300,
      }),
    ).toBe('stream open, silent');
    expect(
      vendorStatLabel({
        status: 'running',
        ...sonnet,
        turns: [{ attempts: [attempt('error'), attempt('pending')] }],
      }),
    ).toBe('asked, no reply yet');
  });

  it('says "last answered by" while the turn\'s tools run, even when a background call is in flight', () => {
    const turns = [
      {
        result: result('sim-anthropic', 'claude-sim-sonnet'),
        attempts: [attempt('ok'), attempt('pending', { background: true, model: 'claude-sim-haiku' })],
      },
    ];
    expect(vendorStatLabel({ status: 'running', ...sonnet, turns })).toBe('last answered by');
  });

  it('says "asking next" for a vendor a swap or fallback chose that has not been asked yet, and "asking first" before the first request', () => {
    const turns = [{ result: result('sim-anthropic', 'claude-sim-sonnet'), attempts: [attempt('ok')] }];
    expect(
      vendorStatLabel({ status: 'running', vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner', turns }),
    ).toBe('asking next');
    expect(
      vendorStatLabel({
        status: 'recovering',
        ...sonnet,
        model: 'claude-sim-haiku',
        turns: [{ attempts: [attempt('error')] }],
      }),
    ).toBe('asking next');
    expect(vendorStatLabel({ status: 'running', ...sonnet, turns: [] })).toBe('asking first');
    // Nothing loaded yet: no claim at all.
    expect(vendorStatLabel({ status: 'idle', turns: [] })).toBe('vendor');
  });
});

describe('vendorStatLabel over a recorded recovering run, event by event', () => {
  const events = readRecoveringRun();
  const labels: Array<{ event: string; label: string; state: RunViewState }> = [];
  let state = initialRunViewState();
  for (const e of events) {
    state = reduceRawEvent(state, e);
    labels.push({ event: e.event, label: vendorStatLabel(state), state });
  }

  it('never says "answering now" unless a foreground response is streaming at that moment', () => {
    const claimed = labels.filter((l) => l.label === 'answering now');
    expect(claimed.length).toBeGreaterThan(0);
    for (const { state: s } of claimed) {
      const open = s.turns.flatMap((t) => t.attempts).filter((a) => !a.background && a.endTs === undefined);
      expect(open.map((a) => a.outcome)).toEqual(['streaming']);
    }
  });

  it('says "retrying with" after each retry_scheduled, and "last answered by" at the end', () => {
    const waits = labels.filter((l) => l.event === 'retry_scheduled');
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits.map((l) => l.label))).toEqual(new Set(['retrying with']));
    expect(labels.at(-1)!.label).toBe('last answered by');
  });
});
