import { expect, test } from './test';
import { RunPage } from './pages/run-page';

/**
 * Sub-agents in the run view: a run whose model delegates three survey tasks at once (the second
 * sub-agent loops). Each child's turns are drawn under the delegate call that started it, in a
 * block that folds away, with the parent's decision about it; the header counts the children's
 * tokens and cost apart, with the attempts tree-wide.
 */
test("a sub-agent's turns are drawn nested under the tool call that started it", async ({
  page,
  request,
}) => {
  const created = await request.post('/api/runs', {
    data: {
      config: {
        provider: { vendor: 'sim-anthropic' },
        preset: 'codesmith',
        seed: 3,
        clock: 'virtual',
        recovery: { tools: { delegate: true } },
        faults: { rules: [], tools: [], subagents: [{ id: 'loop', enabled: true, kind: 'loops', child: 2 }] },
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const run = new RunPage(page);
  await run.goto(id);
  expect(await run.waitForEnd()).toEqual({ reason: 'end_turn', complete: true });

  const turn = run.turnCard(1);
  const delegates = turn.locator('[data-testid="tool-call"][data-tool="delegate"]');
  await expect(delegates).toHaveCount(3);
  // Each child's block sits right under its own delegate call, inside the parent's turn card.
  for (const [k, child] of ['c1', 'c2', 'c3'].entries()) {
    const block = delegates
      .nth(k)
      .locator('xpath=following-sibling::*[1]')
      .locator('[data-testid="nested-run"]');
    await expect(block).toHaveAttribute('data-child', child);
  }
  const c1 = turn.locator('[data-testid="nested-run"][data-child="c1"]');
  await expect(c1).toHaveAttribute('data-outcome', 'answered');
  await expect(c1.getByTestId('nested-turn')).toHaveCount(3);
  await expect(c1.getByTestId('nested-turn').first()).toContainText('list_files');
  await expect(c1.getByTestId('nested-end')).toContainText(
    "c1 answered after 3 requests: its answer is the delegate call's result",
  );
  const c2 = turn.locator('[data-testid="nested-run"][data-child="c2"]');
  await expect(c2).toHaveAttribute('data-outcome', 'looped');
  await expect(c2.getByTestId('nested-outcome')).toContainText('looped → give up');
  await expect(c2.getByTestId('nested-turn')).toHaveCount(6);
  await expect(c2).toContainText('guard: blocked read_file');
  // The child's result is the delegate call's: the looping one's says the parent gave up on it.
  await expect(delegates.nth(1)).toContainText('Sub-agent c2 did not finish');
  // No child turn is drawn as a turn of the parent's.
  await expect(run.turnCards.locator('[data-testid="nested-turn"]')).toHaveCount(3 + 6 + 3);

  // The header counts the children apart, with the attempts tree-wide.
  const stat = page.getByTestId('run-subagents');
  await expect(stat).toBeVisible();
  await expect(page.getByTestId('tree-attempts')).toContainText(/attempts tree-wide \d+/);

  await turn.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('subagent-nested.png'), fullPage: true });
  await page.screenshot({ path: '/tmp/subagent-nested.png', fullPage: true });

  // The block folds away: its turns are hidden, its summary stays.
  await c1.locator('summary').click();
  await expect(c1.getByTestId('nested-turn').first()).toBeHidden();
  await expect(c1.locator('summary')).toContainText('sub-agent c1');
});
