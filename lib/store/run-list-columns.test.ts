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
import { keepLog } from './sample-run.testkit';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-list-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const summaryOf = async (id: string) => (await store.listRuns()).find((r) => r.id === id)!;

describe('the runs list’s rows', () => {
  it('a same-vendor fallback model joins the route as a plain stop, and the list parses as the browser parses it', async () => {
    const lesson = lessonBySlug('fallback-model')!;
    const events = await runToEnd(lessonRunConfig(lesson, 'on', { clock: 'virtual' }));
    expect(ofType(events, 'fallback')).not.toEqual([]);
    await keepLog(store, 'fallback', events);
    const row = await summaryOf('fallback');
    expect(row.vendors.length).toBeGreaterThan(1);
    for (const stop of row.vendors) expect(Object.keys(stop).sort()).toEqual(['model', 'vendor']);
    // One malformed row makes the whole list unreadable in the browser (it showed "0 runs").
    expect(RunSummaryListSchema.safeParse(await store.listRuns()).success).toBe(true);
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
    await keepLog(store, 'swapped', events);
    const start = ofType(events, 'run_start')[0]!;
    expect((await summaryOf('swapped')).vendors).toEqual([
      { vendor: start.vendor, model: start.model },
      { vendor: swaps[0]!.to_vendor, model: swaps[0]!.to_model },
      { vendor: swaps[1]!.to_vendor, model: swaps[1]!.to_model },
    ]);
    expect((await summaryOf('swapped')).vendors.map((v) => v.vendor)).toEqual([
      'sim-anthropic',
      'sim-openai',
      'sim-deepseek',
    ]);
    // The start vendor stays the start (filters and forks read it).
    expect((await summaryOf('swapped')).vendor).toBe('sim-anthropic');
  });

  it('show one vendor for a run that never changed, and the same through getRun', async () => {
    const events = await runToEnd({});
    await keepLog(store, 'plain', events, 1000);
    const start = ofType(events, 'run_start')[0]!;
    expect((await summaryOf('plain')).vendors).toEqual([{ vendor: start.vendor, model: start.model }]);
    expect((await store.getRun('plain'))?.summary.vendors).toEqual((await summaryOf('plain')).vendors);
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
    await keepLog(store, 'child', child);
    expect((await summaryOf('child')).vendors.map((v) => v.vendor)).toEqual(['sim-anthropic', 'sim-openai']);
  });

  it('tell a lesson’s mechanism-on and mechanism-off runs apart by what they changed from the same preset', async () => {
    const lesson = lessonBySlug('partial-vs-empty')!;
    const config = (side: 'on' | 'off') =>
      RunConfigSchema.parse(lessonRunConfig(lesson, side, { clock: 'virtual' }) as RunConfigInput);
    await store.createRun({ id: 'on', config: config('on') });
    await store.createRun({ id: 'off', config: config('off') });
    expect((await summaryOf('on')).preset).toBe((await summaryOf('off')).preset);
    expect((await summaryOf('on')).overrides).toEqual([]);
    expect((await summaryOf('off')).overrides).toContain('partial-kept off');
    expect((await summaryOf('off')).overrides).toContain('watchdog off');
  });
});
