import { expect, test, type Page } from './test';
import { ComparePage } from './pages/compare-page';
import { PlaygroundPage } from './pages/playground-page';
import { RunPage } from './pages/run-page';

const SAME_ORIGIN = (baseURL: string) => ({
  origin: baseURL,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
});
const EDITED = 'EDITED IN THE BROWSER: the test file is empty';

/**
 * Edit, then fork: a finished run's turn-3 tool result is changed on its run page and the run
 * forked there; the fork's log carries the edit (before, after, who, where), its page shows it,
 * and /compare of parent and fork finds the edit first.
 */
test('edit a tool result at turn 3 of a finished run and fork: the log carries the edit, /compare shows it first', async ({
  page,
  request,
  baseURL,
}) => {
  const created = await request.post('/api/runs', {
    headers: SAME_ORIGIN(baseURL!),
    data: { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 7 } },
  });
  expect(created.status()).toBe(201);
  const { id: parentId } = (await created.json()) as { id: string };

  const parent = new RunPage(page);
  await parent.goto(parentId);
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });

  const turn3 = page.locator('[data-testid="turn-card"][data-iteration="3"]');
  const call = turn3.getByTestId('tool-call').first();
  await call.getByTestId('edit-fork-open').click();
  const panel = call.getByTestId('edit-fork');
  await expect(panel).toBeVisible();
  const original = await panel.getByTestId('edit-fork-text').inputValue();
  expect(original.length).toBeGreaterThan(0);
  // Nothing changed: the panel says so instead of forking.
  await panel.getByTestId('edit-fork-submit').click();
  await expect(panel.getByTestId('edit-fork-error')).toContainText('nothing edited');
  await panel.getByTestId('edit-fork-text').fill(EDITED);
  await panel.getByTestId('edit-fork-submit').click();

  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parentId), {
    timeout: 15_000,
  });
  const childId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('forked-from')).toContainText(`at turn 3`, { timeout: 30_000 });
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });
  // The fork's page: what the tool returned, and what the fork sent instead, by whom.
  const edited = page.locator('[data-testid="turn-card"][data-iteration="3"] [data-testid="edited-result"]');
  await expect(edited).toContainText('edited by playground');
  await expect(edited).toContainText(EDITED);
  await edited.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/edit-fork-child.png' });

  // The fork's log carries the edit, right after the copied turns.
  const trace = await page.request.get(`/api/runs/${childId}/trace`);
  expect(trace.ok()).toBe(true);
  const events = (await trace.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const link = events.find((e) => e.event === 'forked_from')!;
  const edits = events.filter((e) => e.event === 'fork_edit');
  expect(edits).toHaveLength(1);
  expect(edits[0]).toMatchObject({
    seq: (link.seq as number) + (link.copied_events as number) + 1,
    target: { kind: 'tool_result', turn: 3 },
    before: original,
    after: EDITED,
    by: 'playground',
  });

  // /compare: the edit is the first divergence, at turn 3.
  const compare = new ComparePage(page);
  await compare.goto(parentId, childId);
  await expect(compare.root).toBeVisible();
  await expect(compare.divergedTurn).toHaveAttribute('data-turn', '3');
  await expect(compare.divergence).toContainText('First divergence at turn 3');
  await expect(compare.divergence).toContainText('B starts from an edited state: the result of');
  await expect(compare.divergence).toContainText('edited by playground');
  await compare.divergence.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/edit-fork-compare.png' });
});

/** The pause bar's edit & fork: a paused run forks from the last turn it finished, and stays paused. */
test('edit & fork from the pause bar: the fork gets the edited output cap and reply, the paused run waits on', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', seed: 7 });
  await playground.addBreakpoint({ on: 'event', event: 'tool_call' });
  const parentId = await playground.run();
  const bar = page.getByTestId('pause-bar');
  await expect(bar).toHaveAttribute('data-trigger', 'breakpoint');
  // Turn 1's tool result is in: the run stands still in turn 2, so turn 1 is the last it finished.
  await expect(page.getByTestId('pause-edit-fork')).toHaveText('Edit & fork after turn 1…');
  await page.getByTestId('pause-edit-fork').click();
  const panel = page.getByTestId('pause-fork');
  await panel.getByTestId('pause-fork-max-tokens').fill('2048');
  await panel.getByTestId('pause-fork-text').fill('Let me look at the tests first.');
  await panel.getByTestId('pause-fork-submit').click();
  await page.waitForURL((url) => url.pathname.startsWith('/runs/'), { timeout: 15_000 });
  const childId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  // The fork keeps the parent's config, its breakpoints too: it pauses at its own first tool_call.
  // Its page's sent view shows the reply as edited.
  await expect(page.getByText('turn 1 reply, as edited by playground')).toBeVisible({ timeout: 30_000 });

  const events = await trace(page, childId);
  const edits = events.filter((e) => e.event === 'fork_edit');
  expect(edits.map((e) => [e.target, e.after, e.by])).toEqual([
    [{ kind: 'message', turn: 1, role: 'assistant' }, 'Let me look at the tests first.', 'playground'],
    [{ kind: 'params', field: 'maxOutputTokens' }, 2048, 'playground'],
  ]);
  // The parent is still paused where it stood.
  const parent = await trace(page, parentId);
  expect(parent.at(-1)?.event).toBe('paused');
  for (const id of [parentId, childId]) {
    const cancelled = await page.request.post(`/api/runs/${id}/control`, {
      headers: { origin: new URL(page.url()).origin, 'content-type': 'application/json' },
      data: { action: 'cancel' },
    });
    expect(cancelled.ok()).toBe(true);
  }
});

async function trace(page: Page, runId: string): Promise<Array<Record<string, unknown>>> {
  const response = await page.request.get(`/api/runs/${runId}/trace`);
  expect(response.ok()).toBe(true);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
