import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventOf } from '@/lib/protocol';
import { finishedRunViewSchema } from '@/lib/protocol/http';
import { RECOVERING_RUN_FILE, readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { eventAt } from '@/lib/client/hooks/use-log-event';
import { loadFold } from '@/lib/client/run-view/load-fold';
import { namedSeqs } from '@/lib/run-view/named-events';
import { createRunStore } from '@/lib/client/run-view/run-store';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { createSqliteRunStore, type RunStore } from '@/lib/store';
import { batchOf } from '@/lib/store/sample-run.testkit';
import { createFinishedRunViews } from './finished-run-views';

vi.mock('server-only', () => ({}));

const dirs: string[] = [];
function tempStore(): RunStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-finished-views-'));
  dirs.push(dir);
  return createSqliteRunStore({ dir });
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const log = readRecoveringRun();
const runId = log[0]!.run_id;
const config = (log[0] as EventOf<'run_start'>).config;
const schema = finishedRunViewSchema<RunViewState>();

/** What a page folds from the run's event stream: each message's JSON, through the run store's checked fold. */
async function liveFold(): Promise<RunViewState> {
  await loadFold();
  const page = createRunStore();
  const messages = fs
    .readFileSync(RECOVERING_RUN_FILE, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line): unknown => JSON.parse(line));
  for (let i = 0; i < messages.length; i += 7) page.getState().applyEvents(messages.slice(i, i + 7));
  return page.getState().view;
}

describe('finished runs folded on the server', () => {
  it("sends the view the page's own fold of the event stream gives, with the events it names as stored and not the rest", async () => {
    const store = tempStore();
    await store.createRun({ id: runId, config, ...batchOf(log) });
    const views = createFinishedRunViews({ store, isLive: async () => false });
    const answer = schema.parse(JSON.parse((await views.body(runId))!));
    if (!answer.finished) throw new Error('a stored log that ends with terminate is finished');
    expect(answer.view).toEqual(await liveFold());
    expect(answer.view.terminate?.reason).toBe((log.at(-1) as EventOf<'terminate'>).reason);
    // Every event the drawing reads by seq (a why line) is there, as stored, found as the page looks it up.
    const seqs = namedSeqs(answer.view);
    expect(seqs).toContain(answer.view.terminate!.seq);
    expect(answer.named).toEqual(seqs.map((seq) => log[seq]));
    for (const seq of seqs) expect(eventAt(answer.named, seq)).toBe(answer.named.find((e) => e.seq === seq));
    expect(answer.named.length).toBeLessThan(log.length / 2);
  });

  it('answers a run still going with finished: false, and folds it once its terminate is stored', async () => {
    const store = tempStore();
    await store.createRun({ id: runId, config, ...batchOf(log, 0, log.length - 1) });
    let live = true;
    const views = createFinishedRunViews({ store, isLive: async () => live });
    expect(schema.parse(JSON.parse((await views.body(runId))!))).toEqual({ finished: false });
    live = false;
    expect(schema.parse(JSON.parse((await views.body(runId))!))).toEqual({ finished: false });
    await store.appendEvents({ runId, ...batchOf(log, log.length - 1) });
    const answer = schema.parse(JSON.parse((await views.body(runId))!));
    expect(answer.finished && answer.view.eventCount).toBe(log.length);
  });

  it('knows no run it has not stored', async () => {
    const views = createFinishedRunViews({ store: tempStore(), isLive: async () => false });
    expect(await views.body('nope')).toBeUndefined();
  });

  it('refuses a body whose log holds something that is not a stored event', () => {
    const problem = schema.safeParse({
      finished: true,
      view: { turns: [], lastSeq: 0, terminate: {} },
      named: [{ seq: 0 }],
    });
    expect(problem.success).toBe(false);
  });
});
