import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, RunEvent } from '@/lib/protocol';
import type { TaskList, UploadedTask } from '@/lib/protocol/http';
import { getRunRegistry } from '@/lib/server';
import { getStore } from '@/lib/store';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { LOOKUP_TABLE_FIX, REAL_FIX, squareTask, writeTaskFolder } from '@/lib/testing/task-folders';
import { readTaskFiles } from '@/lib/tools';
import { dispatch } from '@/scripts/api/dispatch-route';

/**
 * A task folder written at test time outside the repository (os.tmpdir), read as the tasks page
 * reads a chosen folder (every file's path inside it and its text), uploaded through POST
 * /api/tasks and run through POST /api/runs: its hidden tests fail a lookup table of the visible
 * inputs that passes its visible ones.
 */
useTempDataDir('loop-lab-tasks-route-');

type Send = (request: { method: 'GET' | 'POST'; path: string; body?: string }) => Promise<Response>;
const send: Send = (request) => dispatch(request);

async function upload(
  files: Record<string, string>,
  name = 'square',
  by: Send = send,
): Promise<{ status: number; body: UploadedTask & { error?: string; details?: string[] } }> {
  const response = await by({ method: 'POST', path: '/api/tasks', body: JSON.stringify({ name, files }) });
  return { status: response.status, body: (await response.json()) as UploadedTask };
}

function runBody(task: UploadedTask, over: Record<string, unknown> = {}) {
  return JSON.stringify({
    config: {
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      scenario: task.task_id,
      taskUpload: { id: task.id, sha256: task.sha256 },
      ...over,
    },
  });
}

async function runToEnd(task: UploadedTask, by: Send = send): Promise<RunEvent[]> {
  const response = await by({ method: 'POST', path: '/api/runs', body: runBody(task) });
  expect(response.status, await response.clone().text()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  await getRunRegistry().whenFinished(id);
  return getStore().readEvents({ runId: id });
}

const verdictOf = (events: RunEvent[]) =>
  events.find((e): e is EventOf<'task_verdict'> => e.event === 'task_verdict')!;

describe('an uploaded task folder', () => {
  it('runs from its upload: its hidden tests fail a lookup table that passes its visible tests', async () => {
    const folder = writeTaskFolder('square', squareTask({ fix: LOOKUP_TABLE_FIX }));
    const { status, body: task } = await upload(readTaskFiles(folder));
    expect(status, JSON.stringify(task)).toBe(201);
    expect(task).toMatchObject({ task_id: 'square', title: 'Square a number', hidden: 1, files: 5 });

    const events = await runToEnd(task);
    const start = events[0] as EventOf<'run_start'>;
    expect(start.config.taskUpload).toEqual({ id: task.id, sha256: task.sha256 });
    expect(start.scenario.title).toBe('Square a number');
    const verdict = verdictOf(events);
    expect(verdict.verdict).toBe('not_done');
    expect(verdict.hidden_failed).toEqual(['squares 7', 'squares -4']);
    expect(verdict.scorers?.map((s) => [s.id, s.passed])).toEqual([
      ['visible_tests', true],
      ['hidden_tests', false],
    ]);
  }, 60_000);

  it('runs done when the fix is real, and is listed beside the built-in tasks', async () => {
    const folder = writeTaskFolder('square-real', squareTask({ fix: REAL_FIX }));
    const { body: task } = await upload(readTaskFiles(folder), 'square-real');
    expect(verdictOf(await runToEnd(task)).verdict).toBe('done');
    const list = (await (await send({ method: 'GET', path: '/api/tasks' })).json()) as TaskList;
    expect(list.builtin.map((t) => t.id)).toEqual(
      expect.arrayContaining(['fix-failing-test', 'huge-log', 'long-project', 'growing-context']),
    );
    expect(list.uploaded[0]).toEqual(task);
    expect(list.uploaded.map((t) => t.task_id)).toEqual(['square-real', 'square']);
  }, 60_000);

  it.each([
    [
      'a path out of the folder',
      { '../escape.js': 'x' },
      /^files\.\.\.\/escape\.js: not a path inside the folder/,
    ],
    ['an absolute path', { '/etc/x': 'x' }, /^files\.\/etc\/x: not a path inside the folder/],
    [
      'a file over the limit',
      { 'workspace/big.txt': 'x'.repeat(1_000_001) },
      /^files\.workspace\/big\.txt: 1000001 bytes; a file may hold at most 1000000/,
    ],
    ['a bad task.json field', { 'task.json': '{"policy": 3}' }, /^task folder square: task\.json: policy: /],
    [
      'a hint naming no file',
      { 'task.json': '{"hints": {"read": ["src/nope.js"], "summary": "s"}}' },
      /task\.json: hints\.read\.0: "src\/nope\.js" is not a workspace file/,
    ],
    ['a file outside the layout', { 'notes.txt': 'x' }, /notes\.txt is outside the layout/],
  ])('with %s is a 400 naming the file or field', async (_what, change, detail) => {
    const files = { ...squareTask({ fix: REAL_FIX }), ...change };
    const { status, body } = await upload(files);
    expect(status).toBe(400);
    expect(body.details).toEqual([expect.stringMatching(detail)]);
  });

  it('without task.md, or with a bad name, is a 400 saying what to fix', async () => {
    const files: Record<string, string> = { ...squareTask({ fix: REAL_FIX }) };
    delete files['task.md'];
    expect((await upload(files)).body.details).toEqual([
      'task folder square: task.md is missing (the task text)',
    ]);
    const named = await upload(squareTask({ fix: REAL_FIX }), 'My Task');
    expect(named.status).toBe(400);
    expect(named.body.details).toEqual([expect.stringMatching(/^name: lower-case letters, digits and "-"/)]);
  });

  it('a run naming an upload that is not there, or other files, or another task, is a 400', async () => {
    const { body: task } = await upload(squareTask({ fix: REAL_FIX }));
    const refused = async (over: Record<string, unknown>) => {
      const response = await send({ method: 'POST', path: '/api/runs', body: runBody(task, over) });
      expect(response.status).toBe(400);
      return ((await response.json()) as { details: string[] }).details;
    };
    expect(await refused({ taskUpload: { id: 'task-nope', sha256: task.sha256 } })).toEqual([
      'config.taskUpload.id: no uploaded task "task-nope"; GET /api/tasks lists them (upload one on /tasks)',
    ]);
    expect(await refused({ taskUpload: { id: task.id, sha256: '0'.repeat(64) } })).toEqual([
      expect.stringMatching(/^config\.taskUpload\.sha256: the upload "task-\w+" holds files with sha256 /),
    ]);
    expect(await refused({ scenario: 'fix-failing-test' })).toEqual([
      `config.scenario: a run of the upload "${task.id}" names its task "square", not "fix-failing-test"`,
    ]);
  });
});

describe('in room mode', () => {
  const before = process.env.LOOP_LAB_ROOM_CODE;
  beforeAll(() => {
    process.env.LOOP_LAB_ROOM_CODE = 'tasks-room-1';
  });
  afterAll(() => {
    delete (globalThis as { __loopLabBoard?: unknown }).__loopLabBoard;
    if (before === undefined) delete process.env.LOOP_LAB_ROOM_CODE;
    else process.env.LOOP_LAB_ROOM_CODE = before;
  });

  async function join(): Promise<Send> {
    const response = await dispatch({
      method: 'POST',
      path: '/api/room/join',
      body: JSON.stringify({ code: 'tasks-room-1' }),
    });
    expect(response.status).toBe(200);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    return (request) => dispatch({ ...request, headers: { cookie } });
  }

  it("a visitor sees and runs only their own uploads; another's is answered as a missing one", async () => {
    const [a, b] = [await join(), await join()];
    const { status, body: task } = await upload(squareTask({ fix: LOOKUP_TABLE_FIX }), 'square', a);
    expect(status).toBe(201);
    const listOf = async (by: Send) =>
      ((await (await by({ method: 'GET', path: '/api/tasks' })).json()) as TaskList).uploaded.map(
        (t) => t.id,
      );
    expect(await listOf(a)).toEqual([task.id]);
    expect(await listOf(b)).toEqual([]);
    const theirs = await b({ method: 'POST', path: '/api/runs', body: runBody(task) });
    expect(theirs.status).toBe(400);
    expect(((await theirs.json()) as { details: string[] }).details).toEqual([
      `config.taskUpload.id: no uploaded task "${task.id}"; GET /api/tasks lists them (upload one on /tasks)`,
    ]);
    expect(verdictOf(await runToEnd(task, a)).hidden_failed).toEqual(['squares 7', 'squares -4']);
  }, 60_000);
});
