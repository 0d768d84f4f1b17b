import { beforeAll, describe, expect, it } from 'vitest';
import type { RunConfigInput, RunEvent } from '@/lib/protocol';
import { configWithMechanismOff } from '@/lib/mechanisms/mechanisms';
import { runToEnd } from '@/lib/testing/run-to-end';
import { compareRuns, NotComparableError } from './compare-runs';

const base: RunConfigInput = {
  provider: { vendor: 'sim-anthropic' },
  seed: 7,
  faults: {
    rules: [
      {
        id: 'f',
        enabled: true,
        when: { kind: 'requests', numbers: [3] },
        action: { type: 'http_error', status: 529 },
      },
    ],
    tools: [],
  },
};

describe('compareRuns: retry on (A) vs the same seed with retry off (B), 529 on turn 3', () => {
  let a: RunEvent[];
  let b: RunEvent[];
  beforeAll(async () => {
    a = await runToEnd(base);
    b = await runToEnd(configWithMechanismOff(base, 'retry'));
  });

  it('aligns the runs turn by turn and marks turn 3, the first divergence', () => {
    const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
    expect(c.divergence?.turn).toBe(3);
    expect(c.turns.map((t) => t.turn).slice(0, 3)).toEqual([1, 2, 3]);
    expect(c.turns.filter((t) => t.diverged).map((t) => t.turn)).toEqual([3]);
    // B stopped at turn 3: it has no turn 4, A goes on.
    const turnsB = c.turns.filter((t) => t.b !== null).map((t) => t.turn);
    expect(Math.max(...turnsB)).toBe(3);
    expect(c.turns.length).toBeGreaterThan(3);
    const row3 = c.turns[2]!;
    expect(row3.a!.recovery.some((l) => l.startsWith('retry 1 of'))).toBe(true);
    expect(row3.b!.recovery).toContain('error: 529 overloaded');
    expect(row3.b!.recovery.some((l) => l.startsWith('retry'))).toBe(false);
    expect(row3.a!.attempts).toBe(2);
    expect(row3.b!.attempts).toBe(1);
    // Turns 1 and 2 are the same on both sides, text and tool calls alike.
    expect(c.turns[0]!.a!.toolCalls).toEqual(c.turns[0]!.b!.toolCalls);
    expect(c.turns[0]!.a!.toolCalls.length).toBeGreaterThan(0);
    // B stopped before the fix: the unfixed slugify fails 4 of the 6 hidden tests, counted beside the verdict.
    expect(c.end.b).toEqual([
      'task verdict: not done; 4 of 6 hidden tests failed',
      'run ended: model error (incomplete)',
    ]);
  });

  it('diffs the totals and marks the side that did better', () => {
    const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
    const row = (id: string) => c.totals.find((r) => r.id === id)!;
    expect(row('complete')).toMatchObject({ a: 'yes', b: 'no', better: 'a' });
    expect(row('reason')).toMatchObject({ a: 'end_turn', b: 'model_error', better: null });
    expect(row('errorsSeen')).toMatchObject({ a: 0, b: 1, better: 'a' });
    // A 529 before the stream costs nothing: no tokens wasted on either side.
    expect(row('wastedTokens')).toMatchObject({ a: 0, b: 0, better: null });
    // B gave up early: quicker and cheaper, but that is not "better" — only A finished its work.
    expect(row('durationMs')).toMatchObject({
      better: null,
      note: 'not judged: only one run finished its work',
    });
    expect(row('usd')).toMatchObject({ better: null, note: 'not judged: only one run finished its work' });
    // Equal lines need no note.
    expect(row('failedAttempts')).toMatchObject({ a: 1, b: 1, better: null, note: null });
    // Token counts are shown, not judged.
    expect(row('inputTokens').better).toBeNull();
    expect(row('verdict').a).toBe(c.a.verdict);
  });

  it('diffs the configs field by field: the one switched field', () => {
    const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
    expect(c.config).toEqual([{ path: 'recovery.retry.enabled', a: 'true', b: 'false' }]);
    const seeds = compareRuns(
      { id: 'a', events: a },
      {
        id: 'c',
        events: a.map((e) =>
          e.event === 'run_start'
            ? { ...e, config: { ...e.config, seed: 8, budgets: { ...e.config.budgets, maxIterations: 12 } } }
            : e,
        ),
      },
    );
    expect(seeds.config).toEqual([
      { path: 'budgets.maxIterations', a: '30', b: '12' },
      { path: 'seed', a: '7', b: '8' },
    ]);
  });

  it('a side still running: totals so far, nothing judged, no divergence past its end', () => {
    const live = a.slice(0, 20);
    const c = compareRuns({ id: 'a', events: a }, { id: 'live', events: live });
    expect(c.b.running).toBe(true);
    expect(c.divergence).toBeNull();
    expect(c.totals.every((r) => r.better === null)).toBe(true);
    const row = (id: string) => c.totals.find((r) => r.id === id)!;
    // Tokens and time so far are true now; how it ends and what errors are seen are not known yet.
    const calls = live.filter((e) => e.event === 'llm_call');
    expect(calls.length).toBeGreaterThan(0);
    expect(row('inputTokens').b).toBe(
      calls.reduce((n, e) => n + (e.event === 'llm_call' ? e.input_tokens : 0), 0),
    );
    expect(row('durationMs').b).toBe(live.at(-1)!.ts);
    expect(row('reason').b).toBeNull();
    expect(row('errorsSeen').b).toBeNull();
    expect(() => compareRuns({ id: 'a', events: a }, { id: 'empty', events: [] })).toThrow(
      NotComparableError,
    );
  });
});

describe('compareRuns: pairs that differ in nothing that matters', () => {
  // The real clock, sped up: each run is a second or so of wall time, with the machine's own timing in it.
  const real: RunConfigInput = {
    provider: { vendor: 'sim-anthropic' },
    seed: 5,
    clock: 'real',
    timeScale: 0.02,
  };

  it('two real-clock runs of the same config and seed: no line is judged better', async () => {
    const [a, b] = await Promise.all([runToEnd(real), runToEnd(real)]);
    const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
    expect(c.totals.filter((r) => r.better !== null).map((r) => `${r.id}: ${r.a} / ${r.b}`)).toEqual([]);
    expect(c.promptOnly).toBeNull();
    const time = c.totals.find((r) => r.id === 'durationMs')!;
    if (time.a !== time.b) expect(time.note).toMatch(/machine’s own variation/);
  });

  it('two runs that differ only in the system prompt on a simulated vendor: nothing judged, and it says the model does not read prompts', async () => {
    const [a, b] = await Promise.all([
      runToEnd(real),
      runToEnd({ ...real, system: 'You are a terse agent. Do the work.' }),
    ]);
    const c = compareRuns({ id: 'a', events: a }, { id: 'b', events: b });
    expect(c.promptOnly).toEqual({ fields: ['system prompt'] });
    expect(c.totals.filter((r) => r.better !== null).map((r) => `${r.id}: ${r.a} / ${r.b}`)).toEqual([]);
    // The same steps; only the prompt's own tokens are billed differently.
    expect(c.totals.find((r) => r.id === 'outputTokens')).toMatchObject({ note: null });
    expect(c.totals.find((r) => r.id === 'usd')!.note).toMatch(/does not read prompts/);
  });
});
