import { expect, test, type Page } from './test';
import { LESSONS } from '../lib/lessons';
import { MECHANISMS } from '../lib/mechanisms/mechanisms';

/** The lessons: every page states its failure and offers Play; a few play both sides to their end, fast. */

test('the index lists every lesson and each page states its failure with Play', async ({ page }) => {
  // One page a lesson: at a load of 30 on 2 cores 28 pages took over a minute.
  test.setTimeout(LESSONS.length * 10_000);
  await page.goto('/');
  await page.getByRole('link', { name: 'Lessons' }).click();
  await expect(page).toHaveURL(/\/lessons$/);
  await expect(page.getByTestId('lesson-item')).toHaveCount(LESSONS.length);
  for (const lesson of LESSONS) {
    await page.goto(`/lessons/${lesson.slug}`);
    await expect(page.getByTestId('lesson-title')).toHaveText(lesson.title);
    await expect(page.getByTestId('lesson-failure')).toContainText(lesson.failure);
    await expect(page.getByTestId('lesson-play')).toBeEnabled();
  }
});

/** Plays a lesson at a small time scale and waits for both sides and the report. */
async function play(page: Page, slug: string, scale: number) {
  await page.goto(`/lessons/${slug}?scale=${scale}`);
  await page.getByTestId('lesson-play').click();
  await expect(page.getByTestId('lesson-side-on')).toBeVisible();
  await expect(page.getByTestId('lesson-side-off')).toBeVisible();
  await expect(page.getByTestId('lesson-report')).toBeVisible({ timeout: 45_000 });
}

// Each plays well under its demo pace. The runs are on the paced clock, the virtual run event for
// event, so no scale changes what happens (lib/lessons/lessons.test.ts); these are the scales they
// played at on the real clock before, kept so a page still shows each live for a moment. Every
// lesson plays here, not only opens; one without a scale of its own here plays at 0.1.
const PACE = new Map<string, number>([
  ['retry-ladder', 0.05],
  ['retry-after', 0.2],
  ['retry-amplification', 0.1],
  ['stream-idle-watchdog', 0.05],
  ['partial-vs-empty', 0.05],
  ['stream-error-cap', 0.01],
  ['fallback-model', 0.01],
  ['background-retry', 0.1],
  ['loop-guard', 0.1],
  ['failure-budget', 0.1],
  ['specific-tool-errors', 0.05],
  ['output-truncation', 0.1],
  ['old-result-compaction', 0.1],
  ['prompt-caching', 0.1],
  ['proactive-summary', 0.1],
  ['overflow-waterfall', 0.1],
  ['circuit-breaker', 0.1],
  ['reactive-compact', 0.1],
  ['output-cap-escalation', 0.1],
  ['takeover-credentials', 0.1],
  ['rewritten-test', 0.1],
  ['arg-repair', 0.1],
  ['interrupted-tool-call', 0.1],
  ['parallel-tool-calls', 0.1],
  ['cross-vendor-fallback', 0.01],
  ['breaker-half-open', 0.5],
  ['loop-guard-halt', 0.1],
  ['reasoning-placeholder', 0.1],
  ['fork-onto-responses', 0.1],
  ['classifier', 0.1],
  ['cut-tool-calls', 0.1],
  ['reading-a-trace', 0.1],
]);

test('every paced scale above names a lesson', () => {
  for (const slug of PACE.keys()) expect(LESSONS.map((l) => l.slug)).toContain(slug);
});

for (const lesson of LESSONS) {
  const { slug } = lesson;
  const scale = PACE.get(slug) ?? 0.1;
  test(`${slug}: both sides play live to the lesson's outcome, side by side, with where they parted and what each cost`, async ({
    page,
  }) => {
    await play(page, slug, scale);
    await expect(page.getByTestId('lesson-ending-on')).toHaveAttribute(
      'data-reason',
      lesson.expect.on.reason,
    );
    await expect(page.getByTestId('lesson-ending-off')).toHaveAttribute(
      'data-reason',
      lesson.expect.off.reason,
    );
    await expect(page.getByTestId('lesson-divergence')).toContainText(
      lesson.diverges.turn === null ? 'Only in how they ended' : `At turn ${lesson.diverges.turn}`,
    );
    await expect(page.getByTestId('lesson-difference').first()).toContainText(
      `${MECHANISMS[lesson.mechanism].label}: `,
    );
    await expect(page.getByTestId('lesson-difference').first()).toContainText('with it off.');
    await expect(page.getByTestId('lesson-total').first()).toBeVisible();
    await expect(
      page.getByTestId('lesson-total').filter({ hasText: 'errors the user would have seen' }),
    ).toBeVisible();
    // Judged by the lesson's own measure, and the mechanism's side is the better one.
    await expect(page.getByTestId('lesson-criterion')).toContainText(lesson.criterion.says);
    await expect(page.getByTestId('lesson-verdict')).toHaveAttribute('data-better', 'a');
    await expect(page.locator('[data-testid="lesson-total"][data-better="b"]')).toHaveCount(0);
    const on = await page.getByTestId('lesson-side-on').getAttribute('data-run-id');
    const off = await page.getByTestId('lesson-side-off').getAttribute('data-run-id');
    await expect(page.getByTestId('lesson-compare-link')).toHaveAttribute(
      'href',
      `/compare?a=${on}&b=${off}`,
    );
    // A lesson about traces shows both exports span by span (their claims are checked against the
    // rendered spans in components/lessons/lesson-trace.test.ts); any other shows none.
    if (!lesson.trace) await expect(page.getByTestId('lesson-trace')).toHaveCount(0);
    else {
      const spans = page.getByTestId('lesson-trace-on').getByTestId('trace-span');
      const chats = await spans.and(page.locator('[data-operation="chat"]')).count();
      const tools = await spans.and(page.locator('[data-operation="execute_tool"]')).count();
      expect(lesson.text.costs).toContain(`On: ${chats} chat spans and ${tools} execute_tool spans`);
      await expect(spans.and(page.locator('[data-status="ERROR"]'))).toHaveCount(2);
      await expect(
        page
          .getByTestId('lesson-trace-off')
          .getByTestId('trace-span')
          .and(page.locator('[data-status="ERROR"]')),
      ).toHaveCount(2);
    }
  });
}

test('rewritten-test: run_check passes on both sides; the verdict that runs the shipped test says not done and names the edited test', async ({
  page,
}) => {
  await play(page, 'rewritten-test', 0.1);
  const on = page.getByTestId('lesson-side-on');
  const off = page.getByTestId('lesson-side-off');
  await expect(on.getByTestId('task-verdict').first()).toHaveAttribute('data-verdict', 'not_done');
  await expect(on.getByTestId('tests-edited').first()).toHaveAttribute(
    'title',
    'the model edited the test file test/slugify.test.js; this verdict ran it as the scenario shipped it',
  );
  await expect(off.getByTestId('task-verdict').first()).toHaveAttribute('data-verdict', 'done');
  await expect(off.getByTestId('tests-edited').first()).toHaveAttribute(
    'title',
    'the model edited the test file test/slugify.test.js; this verdict ran the edited copies',
  );
});

test('approval-denies-a-write: the overwrite nobody approved is denied, the tests stay as shipped and the verdict says not done; without approval it says done', async ({
  page,
}) => {
  await play(page, 'approval-denies-a-write', 0.1);
  const on = page.getByTestId('lesson-side-on');
  const off = page.getByTestId('lesson-side-off');
  await expect(on.getByTestId('task-verdict').first()).toHaveAttribute('data-verdict', 'not_done');
  await expect(on.getByTestId('tests-edited')).toHaveCount(0);
  await expect(off.getByTestId('task-verdict').first()).toHaveAttribute('data-verdict', 'done');
  await expect(off.getByTestId('tests-edited').first()).toHaveAttribute(
    'title',
    'the model edited the test file test/slugify.test.js; this verdict ran the edited copies',
  );
  await expect(page.locator('[data-testid="lesson-total"][data-total="trustedEditedTests"]')).toHaveAttribute(
    'data-better',
    'a',
  );
});

test('Partial vs Empty: the Partial presented is the mechanism doing its job, not a red failure, and the on side is judged better by cost and tokens paid twice', async ({
  page,
}) => {
  await play(page, 'partial-vs-empty', 0.05);
  const on = page.getByTestId('lesson-side-on');
  await expect(on.getByTestId('run-status')).toHaveAttribute('data-ended-as', 'Partial presented');
  await expect(on.getByTestId('run-status')).not.toContainText('failed');
  await expect(on.getByTestId('terminate-banner')).toContainText(
    'Partial presented: the mechanism did its job',
  );
  await expect(page.getByTestId('lesson-ending-on')).toHaveAttribute('data-by-design', 'Partial presented');
  await expect(page.locator('[data-testid="lesson-total"][data-total="usd"]')).toHaveAttribute(
    'data-better',
    'a',
  );
  await expect(page.locator('[data-testid="lesson-total"][data-total="wastedTokens"]')).toHaveAttribute(
    'data-better',
    'a',
  );
  await expect(page.locator('[data-testid="lesson-total"][data-total="complete"]')).toHaveAttribute(
    'data-better',
    '',
  );
  // Played on the paced clock, its run times are the virtual run's: judged like any other line of the measure.
  await expect(page.locator('[data-testid="lesson-total"][data-total="durationMs"]')).toHaveAttribute(
    'data-better',
    'a',
  );
});

test('at 390 px the two sides stack and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await play(page, 'takeover-credentials', 0.1);
  const on = await page.getByTestId('lesson-side-on').boundingBox();
  const off = await page.getByTestId('lesson-side-off').boundingBox();
  expect(off!.y).toBeGreaterThan(on!.y + on!.height - 1);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
});
