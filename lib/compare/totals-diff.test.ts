import { describe, expect, it } from 'vitest';
import type { ModuleTotalsLine } from '@/lib/mechanisms/module';
import type { RunEvent } from '@/lib/protocol';
import { runTotals, type RunTotals } from './run-totals';
import { judgedBetter, NOT_JUDGED, totalsDiff, type Criterion } from './totals-diff';

const DONE: RunTotals = {
  final: true,
  clock: 'virtual',
  reason: 'end_turn',
  complete: true,
  verdict: 'done',
  durationMs: 8_720,
  turns: 9,
  trustedEditedTests: 0,
  inputTokens: 11_110,
  outputTokens: 267,
  usd: 0.037335,
  wastedTokens: 0,
  errorsSeen: 0,
  attempts: 10,
  httpRequests: 10,
  failedAttempts: 0,
  failedToolRuns: 0,
  titled: true,
  subagentInputTokens: 0,
  subagentOutputTokens: 0,
  subagentUsd: 0,
  subagentRequests: 0,
};

const row = (rows: ReturnType<typeof totalsDiff>, id: string) => rows.find((r) => r.id === id)!;

describe('totalsDiff', () => {
  it('never marks equal values, cost included when float sums of the same calls differ in the last bits', () => {
    // 0.1 + 0.2 is 0.30000000000000004: the same cost summed in another order.
    const rows = totalsDiff({ ...DONE, usd: 0.1 + 0.2 }, { ...DONE, usd: 0.3 });
    expect(row(rows, 'usd')).toMatchObject({ better: null, note: null });
    expect(rows.filter((r) => r.better !== null)).toEqual([]);
  });

  it("shows the sub-agents' lines only where a run started any, and then never judges them", () => {
    const ids = (rows: ReturnType<typeof totalsDiff>) =>
      rows.map((r) => r.id).filter((id) => id.startsWith('subagent'));
    expect(ids(totalsDiff(DONE, DONE))).toEqual([]);
    const delegated = {
      ...DONE,
      subagentInputTokens: 900,
      subagentOutputTokens: 40,
      subagentUsd: 0.004,
      subagentRequests: 3,
    };
    const rows = totalsDiff(DONE, delegated);
    expect(ids(rows)).toEqual([
      'subagentInputTokens',
      'subagentOutputTokens',
      'subagentUsd',
      'subagentRequests',
    ]);
    expect(rows.filter((r) => r.id.startsWith('subagent')).every((r) => r.better === null)).toBe(true);
  });

  it('judges a real cost difference exactly, however small', () => {
    // One input token of a $0.15/M model.
    const rows = totalsDiff({ ...DONE, usd: 0.03705 }, { ...DONE, usd: 0.03705 + 0.15e-6 });
    expect(row(rows, 'usd').better).toBe('a');
  });

  it('never judges a real-clock run time from one pair: it says the machine varies', () => {
    const rows = totalsDiff(
      { ...DONE, clock: 'real', durationMs: 21_476.7 },
      { ...DONE, clock: 'real', durationMs: 28_433.5 },
    );
    expect(row(rows, 'durationMs')).toMatchObject({ better: null, note: NOT_JUDGED.realClock });
    // One side on the real clock is enough to make the pair's times incomparable.
    expect(
      row(totalsDiff({ ...DONE, durationMs: 1 }, { ...DONE, clock: 'real', durationMs: 2 }), 'durationMs')
        .better,
    ).toBeNull();
  });

  it('judges a virtual-clock run time exactly: it is deterministic', () => {
    expect(
      row(totalsDiff({ ...DONE, durationMs: 11_139 }, { ...DONE, durationMs: 8_327 }), 'durationMs').better,
    ).toBe('b');
  });

  it('judges a paced-clock run time exactly too: it is the virtual run, watched at a pace', () => {
    const paced = { ...DONE, clock: 'paced' as const };
    expect(
      row(totalsDiff({ ...paced, durationMs: 11_139 }, { ...paced, durationMs: 8_327 }), 'durationMs').better,
    ).toBe('b');
    expect(
      row(totalsDiff({ ...paced, durationMs: 11_139 }, { ...DONE, durationMs: 8_327 }), 'durationMs').better,
    ).toBe('b');
    // Against the real clock it is still one real-clock time: not judged.
    expect(
      row(totalsDiff({ ...paced, durationMs: 1 }, { ...DONE, clock: 'real', durationMs: 2 }), 'durationMs')
        .better,
    ).toBeNull();
  });

  it('judges nothing between runs that differ only in prompt text on a simulated vendor, and says why', () => {
    const rows = totalsDiff(DONE, { ...DONE, inputTokens: 10_777, usd: 0.036336 }, { promptOnly: true });
    expect(rows.filter((r) => r.better !== null)).toEqual([]);
    expect(row(rows, 'usd').note).toBe(NOT_JUDGED.promptTokens);
    expect(row(rows, 'inputTokens').note).toBe(NOT_JUDGED.promptTokens);
    expect(row(rows, 'outputTokens').note).toBeNull();
  });

  it('without a criterion, effort lines are judged only between runs that ended alike', () => {
    const gaveUp = {
      ...DONE,
      reason: 'model_error' as const,
      complete: false,
      verdict: 'not_done' as const,
      usd: 0,
      durationMs: 0,
      errorsSeen: 1,
    };
    const rows = totalsDiff(DONE, gaveUp);
    expect(row(rows, 'complete').better).toBe('a');
    expect(row(rows, 'usd')).toMatchObject({ better: null, note: NOT_JUDGED.endedApart });
    expect(judgedBetter(rows).side).toBe('a');
  });

  it('with a criterion, judges only its lines, in its directions, whichever way the runs ended', () => {
    // Partial vs Empty: the Partial presented (incomplete) against the answer paid for twice.
    const partial: RunTotals = {
      ...DONE,
      reason: 'partial_response',
      complete: false,
      verdict: 'not_done',
      usd: 0.001941,
      wastedTokens: 0,
      attempts: 1,
      failedAttempts: 0,
    };
    const twice: RunTotals = {
      ...DONE,
      verdict: 'not_done',
      usd: 0.12342,
      wastedTokens: 8_638,
      attempts: 3,
      failedAttempts: 1,
    };
    const criterion: Criterion = {
      says: 'time and cost until the person has an answer',
      lines: { usd: 'low', wastedTokens: 'low', attempts: 'low' },
    };
    const rows = totalsDiff(partial, twice, { criterion });
    expect(row(rows, 'complete')).toMatchObject({ better: null, note: NOT_JUDGED.notMeasure });
    expect(row(rows, 'usd').better).toBe('a');
    expect(row(rows, 'wastedTokens').better).toBe('a');
    expect(row(rows, 'attempts').better).toBe('a');
    expect(judgedBetter(rows)).toEqual({
      side: 'a',
      lines: { a: ['cost', 'tokens spent on failed attempts', 'model requests'], b: [] },
    });
  });

  it('judges nothing while either run goes on', () => {
    const rows = totalsDiff(DONE, { ...DONE, final: false, usd: 0.01 });
    expect(rows.every((r) => r.better === null && r.note === null)).toBe(true);
  });
});

describe("a module's totals line", () => {
  const followed: ModuleTotalsLine = {
    id: 'module:fixture',
    label: 'fixture steps',
    better: 'low',
    count: (e) => (e.event === 'log' && e.message === 'step' ? 1 : 0),
  };
  const log = (steps: number): RunEvent[] =>
    Array.from({ length: steps }, (_, seq) => ({
      run_id: 'r',
      seq,
      ts: seq,
      event: 'log' as const,
      level: 'info' as const,
      message: 'step',
    }));

  it('is counted over the log and shown, judged, where either run counted any', () => {
    const a = runTotals(log(0), [followed]);
    const b = runTotals(log(2), [followed]);
    expect(b.moduleLines).toEqual({ 'module:fixture': 2 });
    const final = (t: RunTotals): RunTotals => ({ ...DONE, moduleLines: t.moduleLines! });
    const rows = totalsDiff(final(a), final(b), { moduleLines: [followed] });
    expect(row(rows, 'module:fixture')).toMatchObject({ label: 'fixture steps', a: 0, b: 2, better: 'a' });
    // Neither run counted any: no line.
    expect(totalsDiff(final(a), final(a), { moduleLines: [followed] }).map((r) => r.id)).not.toContain(
      'module:fixture',
    );
  });
});
