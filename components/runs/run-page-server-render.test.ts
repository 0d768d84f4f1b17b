import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { EventOf } from '@/lib/protocol';
import { finishedRunViewSchema } from '@/lib/protocol/http';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { createFinishedRunViews } from '@/lib/server/finished-run-views';
import { createSqliteRunStore } from '@/lib/store';
import { batchOf } from '@/lib/store/sample-run.testkit';
import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryProvider } from '@/lib/client/api/query-provider';
import { RunPage } from './run-page';

vi.mock('server-only', () => ({}));
vi.mock('next/navigation', () => ({
  useRouter: () => ({ prefetch: () => undefined, push: () => undefined, replace: () => undefined }),
  useSearchParams: () => new URLSearchParams(),
  usePathname: () => '/runs/x',
}));

/**
 * A finished run's page drawn by the server's render (as `next start` renders it before any
 * script runs): with the run the page is sent (app/runs/[id]/page.tsx), the HTML already holds
 * the whole run — its terminate banner, its turns — so the first paint needs no script.
 */
const render = (props: Parameters<typeof RunPage>[0]) =>
  renderToString(createElement(QueryProvider, null, createElement(RunPage, props)));

async function foldedRecoveringRun() {
  const log = readRecoveringRun();
  const runId = log[0]!.run_id;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-run-page-render-'));
  try {
    const store = createSqliteRunStore({ dir });
    await store.createRun({ id: runId, config: (log[0] as EventOf<'run_start'>).config, ...batchOf(log) });
    const body = await createFinishedRunViews({ store, isLive: async () => false }).body(runId);
    const answer = finishedRunViewSchema<RunViewState>().parse(JSON.parse(body!));
    if (!answer.finished) throw new Error('a stored log that ends with terminate is finished');
    return { runId, folded: { view: answer.view, named: answer.named }, log };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("a finished run's page rendered on the server", () => {
  it('draws the whole run, terminate banner and turns, when the run comes with the page', async () => {
    const { runId, folded, log } = await foldedRecoveringRun();
    const html = render({ runId, folded });
    expect(html).toContain('data-testid="terminate-banner"');
    const turns = new Set(
      log.map((e) => ('iteration' in e ? e.iteration : undefined)).filter((i) => i !== undefined),
    ).size;
    expect(turns).toBeGreaterThan(1);
    expect(html.match(/data-testid="turn-card"/g)?.length).toBe(turns);
    // Its log is still to read: the progress says so rather than claiming the whole log.
    expect(html).not.toMatch(/data-testid="log-progress"[^>]*data-state="whole"/);
  });

  it('draws no run without it (the page then asks for the run after its scripts ran)', () => {
    const html = render({ runId: 'r-1' });
    expect(html).not.toContain('data-testid="terminate-banner"');
    expect(html).not.toContain('data-testid="turn-card"');
  });
});
