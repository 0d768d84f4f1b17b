import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunConfigInput, type RunEvent } from '@/lib/protocol';
import { lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { launchRun } from '@/lib/runtime/launch-run';
import { planFork } from '@/lib/runtime/plan-fork';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { RunSummaryListSchema } from '@/lib/protocol/http/runs';
import { createSqliteRunStore } from './sqlite-run-store';
import type { RunStore } from './run-store';
import { batchOf } from './sample-run.testkit';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-list-'));
  store = createSqliteRunStore({ dir });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Stores a finished run's log as the server does: created, then appended batch by batch. */
function keep(id: string, events: RunEvent[], batch = 5): void {
  const config = ofType(events, 'run_start')[0]!.config;
  store.createRun({ id, config });
  for (let i = 0; i < events.length; i += batch) {
    const part = batchOf(events, i, i + batch);
    store.appendEvents({
      runId: id,
      events: part.events.map((e) => ({ ...e, run_id: id })),
      totals: part.totals,
    });
  }
}

const summaryOf = (id: string) => store.listRuns().find((r) => r.id === id)!;

describe('the runs list’s rows', () => {
  it('a same-vendor fallback model joins the route as a plain stop, and the list parses as the browser parses it', async () => {
    const lesson = lessonBySlug('fallback-model')!;
    const events = await runToEnd(lessonRunConfig(lesson, 'on', { clock: 'virtual' }));
    expect(ofType(events, 'fallback')).not.toEqual([]);
    keep('fallback', events);
    const row = summaryOf('fallback');
    expect(row.vendors.length).toBeGreaterThan(1);
    for (const stop of row.vendors) expect(Object.keys(stop).sort()).toEqual(['model', 'vendor']);
    // One malformed row makes the whole list unreadable in the browser (it showed "0 runs").
    expect(RunSummaryListSchema.safeParse(store.listRuns()).success).toBe(true);
  });

  it('show every vendor and model a swapped run used, in order', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic' },
      swaps: [
        { atTurn: 2, vendor: 'sim-openai', model: '' },
        { atTurn: 3, vendor: 'sim-deepseek', model: '' },
      ],
    });
    const swaps = ofType(events, 'swap');
    expect(swaps).toHaveLength(2);
    keep('swapped', events);
    const start = ofType(events, 'run_start')[0]!;
    expect(summaryOf('swapped').vendors).toEqual([
      { vendor: start.vendor, model: start.model },
      { vendor: swaps[0]!.to_vendor, model: swaps[0]!.to_model },
      { vendor: swaps[1]!.to_vendor, model: swaps[1]!.to_model },
    ]);
    expect(summaryOf('swapped').vendors.map((v) => v.vendor)).toEqual([
      'sim-anthropic',
      'sim-openai',
      'sim-deepseek',
    ]);
    // The start vendor stays the start (filters and forks read it).
    expect(summaryOf('swapped').vendor).toBe('sim-anthropic');
  });

  it('show one vendor for a run that never changed, and the same through getRun', async () => {
    const events = await runToEnd({});
    keep('plain', events, 1000);
    const start = ofType(events, 'run_start')[0]!;
    expect(summaryOf('plain').vendors).toEqual([{ vendor: start.vendor, model: start.model }]);
    expect(store.getRun('plain')?.summary.vendors).toEqual(summaryOf('plain').vendors);
  });

  it('start a fork’s vendors where its copied turns ran', async () => {
    const parent = await runToEnd({ provider: { vendor: 'sim-anthropic' }, seed: 7 });
    const plan = planFork({
      spec: { runId: 'parent', atTurn: 2, provider: 'sim-openai' },
      parent: { config: ofType(parent, 'run_start')[0]!.config, running: false },
      events: parent,
    });
    if (!plan.ok) throw new Error(plan.problems.join('; '));
    const child: RunEvent[] = [];
    await launchRun({ runId: 'child', config: plan.config, fork: plan.fork, onEvent: (e) => child.push(e) })
      .done;
    keep('child', child);
    expect(summaryOf('child').vendors.map((v) => v.vendor)).toEqual(['sim-anthropic', 'sim-openai']);
  });

  it('tell a lesson’s mechanism-on and mechanism-off runs apart by what they changed from the same preset', () => {
    const lesson = lessonBySlug('partial-vs-empty')!;
    const config = (side: 'on' | 'off') =>
      RunConfigSchema.parse(lessonRunConfig(lesson, side, { clock: 'virtual' }) as RunConfigInput);
    store.createRun({ id: 'on', config: config('on') });
    store.createRun({ id: 'off', config: config('off') });
    expect(summaryOf('on').preset).toBe(summaryOf('off').preset);
    expect(summaryOf('on').overrides).toEqual([]);
    expect(summaryOf('off').overrides).toContain('partial-kept off');
    expect(summaryOf('off').overrides).toContain('watchdog off');
  });
});
