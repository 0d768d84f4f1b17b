import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK_LIMITS } from '@/lib/protocol';
import { squareTask, writeTaskFolder, REAL_FIX } from '@/lib/testing/task-folders';
import { listScenarios } from '../scenarios';
import { createWorkspace } from '../workspace';
import { loadTaskDir, pinTaskDir, readTaskFiles, taskFromFiles, TaskFolderError } from './load-task';

const load = (files: Record<string, string>) =>
  taskFromFiles(files, { name: 'my-task', where: 'task folder x' });

describe('the built-in scenarios', () => {
  it('are the folders under lib/tools/tasks/builtin/, read by this loader (the format proven by using it)', () => {
    expect(
      listScenarios()
        .map((s) => s.id)
        .sort(),
    ).toEqual(readdirSync('lib/tools/tasks/builtin').sort());
    for (const scenario of listScenarios()) {
      const { ref } = pinTaskDir(join('lib/tools/tasks/builtin', scenario.id));
      const loaded = loadTaskDir(ref);
      const { check: _a, ...fromFolder } = loaded;
      const { check: _b, ...builtin } = scenario;
      expect(fromFolder).toEqual(builtin);
    }
  });
});

describe('a task folder', () => {
  it('becomes a scenario: tests/ in the workspace, hidden/ kept out of it, names from the folder', () => {
    const task = load(squareTask({ fix: REAL_FIX }));
    expect(task.id).toBe('my-task');
    expect(task.title).toBe('Square a number');
    expect(task.task).toBe(
      'Make square(n) in src/square.js return n squared, and make sure run_check passes.',
    );
    expect(Object.keys(task.files).sort()).toEqual(['src/square.js', 'tests/square.test.js']);
    expect(task.tests).toEqual(['tests/square.test.js']);
    expect(Object.keys(task.hidden.files)).toEqual(['.hidden-tests/square.test.js']);
    expect(task.policy).toBe('worker');
  });

  it('runs its visible tests, and its hidden tests beside them, in the sandbox', async () => {
    const task = load(squareTask({ fix: REAL_FIX }));
    const fixed = { ...task.files, 'src/square.js': 'module.exports = { square: (n) => n * n };\n' };
    expect((await task.check(createWorkspace({ files: task.files }))).passed).toBe(false);
    expect((await task.check(createWorkspace({ files: fixed }))).passed).toBe(true);
    const hidden = await task.check(createWorkspace({ files: { ...fixed, ...task.hidden.files } }), {
      entries: Object.keys(task.hidden.files),
    });
    expect(hidden.results?.map((r) => [r.file, r.name, r.ok])).toEqual([
      ['.hidden-tests/square.test.js', 'squares 7', true],
      ['.hidden-tests/square.test.js', 'squares -4', true],
    ]);
  });

  it('puts tests where testsDir says, and hidden tests in .hidden-tests beside it', () => {
    const files = squareTask({ fix: REAL_FIX });
    const spec = JSON.parse(files['task.json']!) as Record<string, unknown>;
    const task = load({ ...files, 'task.json': JSON.stringify({ ...spec, testsDir: 'pkg/test' }) });
    expect(task.tests).toEqual(['pkg/test/square.test.js']);
    expect(Object.keys(task.hidden.files)).toEqual(['pkg/.hidden-tests/square.test.js']);
  });

  it.each([
    [{ 'task.md': undefined }, /task\.md is missing/],
    [{ 'task.md': '  \n' }, /task\.md is empty/],
    [{ 'tests/square.test.js': undefined }, /tests\/ has no test file/],
    [{ 'task.json': '{ "title": ' }, /task\.json is not JSON/],
    [{ 'task.json': '{ "titel": "x" }' }, /task\.json: \(root\): .*titel/],
    [{ 'task.json': '{ "policy": "genius" }' }, /task\.json: policy: /],
    [
      { 'task.json': '{ "scorers": [{ "kind": "regex", "pattern": "(" }] }' },
      /task\.json: scorers\.0\.pattern: /,
    ],
    [
      { 'task.json': '{ "scorers": [{ "kind": "json_schema", "schema": { "type": "bogus" } }] }' },
      /task\.json: scorers\.0\.schema: zod cannot read this JSON Schema/,
    ],
    [
      { 'task.json': '{ "hints": { "read": ["nope.js"], "summary": "s" } }' },
      /task\.json: hints\.read\.0: "nope\.js" is not a workspace file/,
    ],
    [
      {
        'task.json':
          '{ "hints": { "fix": { "path": "src/square.js", "find": "xyz", "replace": "" }, "summary": "s" } }',
      },
      /task\.json: hints\.fix\.find: the text is not in src\/square\.js/,
    ],
    [
      { 'task.json': '{ "tests": { "other.test.js": ["a"] } }' },
      /task\.json: tests\.other\.test\.js: there is no tests\/other\.test\.js/,
    ],
    [{ 'notes.txt': 'x' }, /notes\.txt is outside the layout/],
    [{ 'workspace/tests/extra.js': 'x' }, /workspace\/tests\/extra\.js sits where tests\/ is copied/],
  ])('refuses a bad folder with an error naming the file and field (%#)', (change, message) => {
    const files: Record<string, string> = { ...squareTask({ fix: REAL_FIX }) };
    for (const [path, text] of Object.entries(change)) {
      if (text === undefined) delete files[path];
      else files[path] = text;
    }
    expect(() => load(files)).toThrow(message);
  });

  it('holds a folder on disk to its limits, and refuses links and non-text', () => {
    const big = writeTaskFolder('big', {
      ...squareTask({ fix: REAL_FIX }),
      'workspace/big.txt': 'x'.repeat(TASK_LIMITS.maxFileBytes + 1),
    });
    expect(() => readTaskFiles(big)).toThrow(/workspace\/big\.txt is \d+ bytes; a file may hold at most/);
    const binary = writeTaskFolder('binary', squareTask({ fix: REAL_FIX }));
    writeFileSync(join(binary, 'workspace/logo.png'), Buffer.from([0x89, 0x50, 0xff, 0xfe, 0x00]));
    expect(() => readTaskFiles(binary)).toThrow(/workspace\/logo\.png is not UTF-8 text/);
    const linked = writeTaskFolder('linked', squareTask({ fix: REAL_FIX }));
    symlinkSync('/etc/passwd', join(linked, 'workspace/passwd'));
    expect(() => readTaskFiles(linked)).toThrow(/workspace\/passwd is a symbolic link/);
    expect(() => readTaskFiles(join(linked, 'nope'))).toThrow(TaskFolderError);
  });

  it('is pinned by the sha256 of its files: a folder changed since is refused', () => {
    const dir = writeTaskFolder('square', squareTask({ fix: REAL_FIX }));
    const { ref, id } = pinTaskDir(dir);
    expect(id).toBe('square');
    expect(loadTaskDir(ref).id).toBe('square');
    mkdirSync(join(dir, 'workspace/docs'));
    writeFileSync(join(dir, 'workspace/docs/new.md'), 'a new file\n');
    expect(() => loadTaskDir(ref)).toThrow(/changed since the run was configured/);
    expect(pinTaskDir(dir).ref.sha256).not.toBe(ref.sha256);
  });
});
