import { expect, test, type Page } from './test';
import { PlaygroundPage } from './pages/playground-page';

/**
 * What the control panel lets a person set before (and during) a run: breakpoints of every kind,
 * tool approval, and a structured answer with the faults the simulated model can put in it.
 */

/** Where the screenshots go (outside test-results, which each run of Playwright empties). */
const SHOTS = process.env.E2E_SHOTS_DIR ?? '.data/e2e-shots/hands-on-config';

async function trace(page: Page, runId: string): Promise<Array<Record<string, unknown>>> {
  const response = await page.request.get(`/api/runs/${runId}/trace`);
  expect(response.ok()).toBe(true);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('a retry_scheduled breakpoint set in the panel on a rate-limited run: pause, step, a breakpoint added live, continue', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', faults: ['rate-limit-7s'] });

  // Every kind of breakpoint can be added and removed; the one kept is the event breakpoint.
  await playground.addBreakpoint({ on: 'event', event: 'retry_scheduled' });
  await playground.addBreakpoint({ on: 'tool', tool: 'write_file' });
  await playground.addBreakpoint({ on: 'request', request: 40 });
  await playground.addBreakpoint({ on: 'cost', usd: 2.5 });
  const items = page.getByTestId('breakpoint-item');
  await expect(items).toHaveText([
    /on retry_scheduled/,
    /before a write_file call/,
    /before request 40/,
    /cost over \$2\.5/,
  ]);
  // The same breakpoint twice cannot be added.
  await page.getByTestId('breakpoint-kind').selectOption('event');
  await page.getByTestId('breakpoint-event').selectOption('retry_scheduled');
  await expect(page.getByTestId('breakpoint-add')).toBeDisabled();
  await expect(items).toHaveCount(4);
  // Approval, named tools, denied after a time: the words say what the timeout does.
  await page.getByTestId('approval-select').selectOption('named');
  await expect(page.getByTestId('approval-tools-error')).toBeVisible();
  await expect(page.getByTestId('run-blocked')).toContainText('tool approval names no tool');
  await page.getByTestId('approval-tool-write_file').check();
  await page.getByTestId('approval-timeout').selectOption('deny');
  await expect(page.getByTestId('approval-timeout-words')).toContainText(
    'the call is denied and the model is told',
  );
  await page.getByTestId('breakpoints').scrollIntoViewIfNeeded();
  await page.getByTestId('controls').screenshot({ path: `${SHOTS}/panel-breakpoints.png` });
  // Back to the one breakpoint this run is about, and no approval.
  await page.getByTestId('approval-select').selectOption('off');
  for (let k = 0; k < 3; k++) await items.last().getByTestId('breakpoint-remove').click();
  await expect(items).toHaveText([/on retry_scheduled/]);
  await expect(page.getByTestId('run-blocked')).toHaveCount(0);

  const runId = await playground.run();
  const bar = page.getByTestId('pause-bar');
  await expect(bar).toHaveAttribute('data-trigger', 'breakpoint');
  await expect(page.getByTestId('pause-reason')).toContainText('breakpoint on retry_scheduled');
  // The keys are on the buttons and spelled out beside them.
  await expect(page.getByTestId('pause-keys')).toContainText('s step one event');
  await expect(page.getByTestId('pause-step')).toHaveAttribute('aria-keyshortcuts', 's');
  await page.screenshot({ path: `${SHOTS}/paused-on-retry.png` });

  await page.keyboard.press('s');
  await expect(bar).toHaveAttribute('data-trigger', 'step');
  // While the run is paused, a breakpoint added in the panel reaches it at once.
  await playground.addBreakpoint({ on: 'tool', tool: '' });
  await expect(items).toHaveText([/on retry_scheduled/, /before a tool call/]);
  await page.getByTestId('pause-continue').click();
  await expect(bar).toHaveAttribute('data-trigger', 'breakpoint');
  await expect(page.getByTestId('pause-reason')).toContainText('before a tool call');
  // Taken out live too: the run goes on to its end.
  await items.last().getByTestId('breakpoint-remove').click();
  await page.keyboard.press('c');
  const end = await playground.waitForEnd();
  expect(end.reason).toBe('end_turn');

  const events = await trace(page, runId);
  const retries = events.filter((e) => e.event === 'retry_scheduled');
  const paused = events.filter((e) => e.event === 'paused');
  expect(retries).toHaveLength(1);
  expect(paused.map((e) => e.trigger)).toEqual(['breakpoint', 'step', 'breakpoint']);
  expect(paused[0]!.after_seq).toBe(retries[0]!.seq);
  expect(paused[2]!.reason).toContain('before a tool call');
  const resumed = events.filter((e) => e.event === 'resumed').map((e) => [e.action, e.by]);
  expect(resumed).toEqual([
    ['step', 'playground'],
    ['continue', 'playground'],
    ['continue', 'playground'],
  ]);
  const config = events[0]!.config as { pause?: unknown };
  expect(config.pause).toEqual({ breakpoints: [{ on: 'event', event: 'retry_scheduled' }] });
});

test('a structured answer turned on in the panel: the schema checked as typed, then the run answers in it', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-openai', clock: 'virtual', seed: 2 });
  await page.getByTestId('answer-on').check();
  const schema = page.getByTestId('answer-schema');
  await expect(schema).toHaveValue(/"files_changed"/);

  // A schema that is not JSON, then one whose root is not an object: each says what to fix, and Run waits.
  await schema.fill('{"type": "object", "properties": {"done": {"type": "boolean"},}}');
  await expect(page.getByTestId('answer-schema-error')).toContainText('the schema is not JSON');
  await expect(page.getByTestId('run-button')).toBeDisabled();
  await expect(page.getByTestId('run-blocked')).toContainText('answer schema is not JSON');
  await schema.fill('{"type": "array", "items": {"type": "string"}}');
  await expect(page.getByTestId('answer-schema-error')).toContainText(
    'must have "type": "object" at the root',
  );
  await page.getByTestId('answer-schema-error').scrollIntoViewIfNeeded();
  await page.getByTestId('controls').screenshot({ path: `${SHOTS}/panel-answer-error.png` });

  // Strict mode names what OpenAI's strict mode needs.
  await schema.fill('{"type": "object", "properties": {"done": {"type": "boolean"}}}');
  await page.getByTestId('answer-strict').check();
  await expect(page.getByTestId('answer-schema-error')).toContainText('"additionalProperties": false');
  await page.getByTestId('answer-strict').uncheck();

  // A ready-made schema, and the model spoils its first answer.
  await page.getByTestId('answer-template').selectOption('fix-report');
  await expect(page.getByTestId('answer-name')).toHaveValue('report');
  await page.getByTestId('answer-fault-breaks_schema').check();
  await expect(page.getByTestId('answer-fault-breaks_schema-times')).toHaveValue('1');
  await expect(page.getByTestId('answer-schema-error')).toHaveCount(0);
  await page.getByTestId('answer-fields').scrollIntoViewIfNeeded();
  await page.getByTestId('controls').screenshot({ path: `${SHOTS}/panel-answer.png` });

  const runId = await playground.run();
  const end = await playground.waitForEnd();
  expect(end.reason).toBe('end_turn');
  // The run view marks the answer fault with its words, and what the mechanism decided after it.
  const fault = page.locator('[data-testid="waterfall-marker"][data-kind="fault"]');
  await expect(fault).toHaveCount(1);
  await expect(fault).toHaveAttribute(
    'title',
    /answer fault "answer-breaks_schema": the answer is valid JSON that breaks the schema .*\(answer 1 of 1\)/,
  );
  await expect(page.locator('[data-testid="waterfall-marker"][data-kind="log"]').first()).toHaveAttribute(
    'title',
    /the answer does not match the schema: asked again/,
  );
  await fault.click();
  await expect(page.getByTestId('inspector')).toContainText('answer fault "answer-breaks_schema"');
  await page.getByTestId('inspector').screenshot({ path: `${SHOTS}/run-answer-fault.png` });
  // The answer the run ended with is the last turn's text: the schema's JSON.
  const last = page.getByTestId('turn-card').last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toContainText('"files_changed"');
  await page.screenshot({ path: `${SHOTS}/run-answer.png`, fullPage: false });

  const events = await trace(page, runId);
  const config = events[0]!.config as { answer?: { name: string }; faults: { answers?: unknown[] } };
  expect(config.answer?.name).toBe('report');
  expect(config.faults.answers).toEqual([
    { id: 'answer-breaks_schema', enabled: true, kind: 'breaks_schema', times: 1 },
  ]);
  const injected = events.filter((e) => e.event === 'fault_injected');
  expect(injected.map((e) => e.action)).toEqual(['answer_breaks_schema']);
  const answers = events.filter((e) => e.event === 'structured_answer');
  expect(answers.map((e) => e.next)).toEqual(['reask', 'accept']);
  expect(answers[0]!.seq as number).toBeGreaterThan(injected[0]!.seq as number);
});
