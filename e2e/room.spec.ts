import { expect, test, type Page } from './test';
import { lessonBySlug } from '../lib/lessons';
import type { Board } from '../lib/protocol/http';
import { startRoomServer, type RoomServer } from './room-server';

/**
 * Room mode in the browser, on a `next start` of its own (the shared servers are not rooms):
 * the teacher's board tallies a lesson a visitor plays, the teacher's "open this" arrives as a
 * notice on the visitor's page, and a share link opens a run read only without joining.
 */
const ROOM_CODE = 'blue-otter-42';
const TEACHER_CODE = 'red-heron-7';
const PLAYED = 'retry-ladder';
const SENT = 'retry-after';

let server: RoomServer | undefined;
let baseURL = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startRoomServer({ roomCode: ROOM_CODE, teacherCode: TEACHER_CODE, name: 'room' });
  baseURL = server.baseURL;
});

test.afterAll(() => server?.stop());

async function joinWith(page: Page, code: string): Promise<void> {
  await page.goto(`${baseURL}/room`);
  await page.getByLabel('Room code').fill(code);
  await page.getByRole('button', { name: 'Join' }).click();
}

test("the board tallies a visitor's lesson, the teacher's notice reaches the visitor, a share link reads one run", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const teacher = await (await browser.newContext()).newPage();
  const visitor = await (await browser.newContext()).newPage();
  // The teacher opens the board before joining: it says whose it is and links to the join page, which comes back.
  await teacher.goto(`${baseURL}/board`);
  await teacher.getByTestId('board-join').click();
  await teacher.getByLabel('Room code').fill(TEACHER_CODE);
  await teacher.getByRole('button', { name: 'Join' }).click();
  await expect(teacher).toHaveURL(`${baseURL}/board`);
  await expect(teacher.getByTestId('board-tally')).toBeVisible();
  await joinWith(visitor, ROOM_CODE);
  await expect(visitor).toHaveURL(`${baseURL}/`);

  // The visitor plays a lesson; the board's row for it fills in as its runs end (streamed).
  const played = await visitor.request.post(`${baseURL}/api/lessons/${PLAYED}/play`, {
    data: { timeScale: 0.01 },
  });
  expect(played.status()).toBe(201);
  const { on, off } = (await played.json()) as { on: string; off: string };
  const row = teacher.getByTestId(`tally-${PLAYED}`);
  await expect(row.locator('[data-col="played"]')).toHaveText('1');
  await expect(row.locator('[data-col="ended"]')).toHaveText('1', { timeout: 60_000 });
  await expect(teacher.getByTestId('board-visitors')).toContainText(lessonBySlug(PLAYED)!.title);

  // The row says what the stored runs say.
  const status = async (id: string) =>
    (
      (await (await visitor.request.get(`${baseURL}/api/runs/${id}`)).json()) as {
        summary: { status: string };
      }
    ).summary.status;
  const board = (await (await teacher.request.get(`${baseURL}/api/board`)).json()) as Board;
  const tally = board.lessons.find((t) => t.slug === PLAYED)!;
  expect(tally.onCompleted).toBe((await status(on)) === 'completed' ? 1 : 0);
  expect(tally.offFailed).toBe((await status(off)) === 'failed' ? 1 : 0);
  for (const col of ['onCompleted', 'offFailed', 'diverged'] as const)
    await expect(row.locator(`[data-col="${col}"]`)).toHaveText(String(tally[col]));
  await teacher.screenshot({ path: test.info().outputPath('room-board.png'), fullPage: true });

  // "Open this for everyone": a notice on the visitor's page, with its link.
  await teacher.getByTestId('notice-lesson').selectOption(SENT);
  await teacher.getByTestId('send-notice').click();
  const notice = visitor.getByTestId('room-notice');
  await expect(notice).toContainText(lessonBySlug(SENT)!.title);
  await visitor.screenshot({ path: test.info().outputPath('room-notice.png') });
  await notice.getByTestId('room-notice-open').click();
  await expect(visitor).toHaveURL(`${baseURL}/lessons/${SENT}`);

  // A visitor never sees the board.
  expect((await visitor.request.get(`${baseURL}/api/board`)).status()).toBe(403);

  // A share link opens the run read only, for someone who never joined.
  const shared = await visitor.request.post(`${baseURL}/api/runs/${on}/share`, { data: {} });
  expect(shared.status()).toBe(201);
  const { path: link } = (await shared.json()) as { path: string };
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(`${baseURL}${link}`);
  await expect(stranger.getByTestId('shared-run-title')).toBeVisible();
  await expect(stranger.getByTestId('terminate-banner')).toBeVisible();
  await expect(stranger.getByTestId('abort-button')).toHaveCount(0);
  expect((await stranger.request.get(`${baseURL}/api/runs/${on}`)).status()).toBe(401);
});
