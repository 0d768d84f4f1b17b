import { expect, test, type Page } from './test';
import { PlaygroundPage } from './pages/playground-page';

/** Hands on a run: a breakpoint, step and continue; tool calls approved, denied and edited. */

async function trace(page: Page, runId: string): Promise<Array<Record<string, unknown>>> {
  const response = await page.request.get(`/api/runs/${runId}/trace`);
  expect(response.ok()).toBe(true);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('a breakpoint on retry_scheduled: the run pauses there, steps one event, continues', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', faults: ['overloaded-x3'] });
  await playground.addBreakpoint({ on: 'event', event: 'retry_scheduled' });
  const runId = await playground.run();

  const bar = page.getByTestId('pause-bar');
  await expect(bar).toHaveAttribute('data-trigger', 'breakpoint');
  await expect(page.getByTestId('pause-reason')).toContainText('breakpoint on retry_scheduled');
  await expect(page.getByTestId('pause-at')).toContainText('before a wait of');
  await page.getByTestId('pause-step').click();
  await expect(bar).toHaveAttribute('data-trigger', 'step');
  await expect(page.getByTestId('pause-reason')).toContainText('one step: stopped after');
  // The keyboard: c continues (to the next retry_scheduled), then the button until the run ends.
  await page.keyboard.press('c');
  await expect(bar).toHaveAttribute('data-trigger', 'breakpoint');
  for (let k = 0; k < 5 && (await bar.isVisible()); k++) {
    await page.getByTestId('pause-continue').click();
    await page.waitForTimeout(300);
  }
  const end = await playground.waitForEnd();
  expect(end.reason).toBe('end_turn');

  const events = await trace(page, runId);
  const kinds = events.map((e) => e.event);
  const retries = events.filter((e) => e.event === 'retry_scheduled');
  const paused = events.filter((e) => e.event === 'paused');
  expect(retries).toHaveLength(3);
  expect(paused.filter((e) => e.trigger === 'breakpoint').map((e) => e.after_seq)).toEqual(
    retries.map((e) => e.seq),
  );
  expect(events.filter((e) => e.event === 'resumed').map((e) => [e.action, e.by])[0]).toEqual([
    'step',
    'playground',
  ]);
  expect(kinds.at(-1)).toBe('terminate');
});

test('tool approval: one call approved, one denied with a message the model receives, one edited', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', seed: 2 });
  await page.getByTestId('approval-select').selectOption('all');
  const runId = await playground.run();

  const bar = page.getByTestId('pause-bar');
  // Each decision is made on the call the bar shows; the next is waited for by its call id, since the
  // bar stays up between two calls that both wait for approval.
  const nextCall = async (previous: string | null): Promise<string | null> => {
    await expect.poll(() => bar.getAttribute('data-call-id'), { timeout: 30_000 }).not.toBe(previous);
    await expect(bar).toHaveAttribute('data-trigger', 'approval');
    return bar.getAttribute('data-call-id');
  };
  let call = await nextCall(null);
  await expect(page.getByTestId('approval-args')).not.toHaveValue('');
  await page.getByTestId('approval-approve').click();

  // The next call: denied, with the message the model gets as the call's error result.
  call = await nextCall(call);
  await page.getByTestId('approval-deny').click();
  await expect(page.getByTestId('pause-bar').getByRole('alert')).toContainText('a denial needs a message');
  await page.getByTestId('approval-denial').fill('Not this file: look at the tests first.');
  await page.getByTestId('approval-deny').click();

  // The next: edited before it runs.
  await nextCall(call);
  const shown = JSON.parse(await page.getByTestId('approval-args').inputValue()) as Record<string, unknown>;
  // A call with a path is sent to package.json instead; any other keeps its arguments, edited or not.
  const edited = 'path' in shown ? { ...shown, path: 'package.json' } : shown;
  await page.getByTestId('approval-args').fill(JSON.stringify(edited));
  await page.getByTestId('approval-edit').click();

  // Then approve the rest with the keyboard until the run ends.
  for (let k = 0; k < 20; k++) {
    const ended = await page.getByTestId('terminate-banner').isVisible();
    if (ended) break;
    if (await bar.isVisible()) await page.keyboard.press('y');
    await page.waitForTimeout(300);
  }
  await playground.waitForEnd();

  const events = await trace(page, runId);
  const decisions = events.filter((e) => e.event === 'tool_approval');
  expect(decisions.slice(0, 3).map((e) => [e.decision, e.by])).toEqual([
    ['approved', 'playground'],
    ['denied', 'playground'],
    ['edited', 'playground'],
  ]);
  expect(decisions[1]!.message).toBe('Not this file: look at the tests first.');
  // The denied call never ran; the edited one ran with the edited arguments.
  const calls = events.filter((e) => e.event === 'tool_call');
  expect(calls.some((e) => e.call_id === decisions[1]!.call_id)).toBe(false);
  expect(decisions[2]!.edited_args).toEqual(edited);
  expect(calls.find((e) => e.call_id === decisions[2]!.call_id)?.args).toEqual(edited);
  // The model received the denial: its next request went out after it, and the run went on.
  expect(
    events.some((e) => e.event === 'iteration_start' && (e.seq as number) > (decisions[1]!.seq as number)),
  ).toBe(true);
});
