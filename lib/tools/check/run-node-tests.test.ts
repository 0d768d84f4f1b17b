import { describe, expect, it } from 'vitest';
import { createRandom, RealClock } from '@/lib/clock';
import { setup } from '../executor.testkit';
import { fixFailingTest } from '../scenarios/fix-failing-test';
import { createRunCheckTool } from '../tools/run-check';
import type { ToolContext } from '../types';
import { createWorkspace } from '../workspace';
import { runNodeTests } from './run-node-tests';

/**
 * The check sandbox against hostile workspaces. Each of these hung,
 * crashed or fooled the old in-process node:vm check; here each must end with a clear answer
 * while this process (standing in for the server) keeps running.
 */
const ENTRY = 'test/slugify.test.js';
const FIXED = fixFailingTest.files['src/slugify.js']!.replace(
  ".replace(/[^a-z0-9]+/, '-')",
  ".replace(/[^a-z0-9]+/g, '-')",
);

function workspaceWith(source: string) {
  return createWorkspace({ files: { ...fixFailingTest.files, 'src/slugify.js': source } });
}

/** Runs run_check on the real clock while counting event-loop ticks of this process. */
async function runCheckWatchingLoop(source: string) {
  const ctx: ToolContext = {
    workspace: workspaceWith(source),
    clock: new RealClock(1),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 5);
  try {
    const result = await createRunCheckTool({ scenario: fixFailingTest }).run({}, ctx);
    return { result, ticks };
  } finally {
    clearInterval(ticker);
  }
}

describe('run_check in a sandboxed child process', () => {
  it('passes the fixed code and fails the broken code, with stack frames in workspace paths only', async () => {
    expect((await runNodeTests({ workspace: workspaceWith(FIXED), entries: [ENTRY] })).passed).toBe(true);
    const broken = await runNodeTests({
      workspace: workspaceWith('module.exports = { slugify: () => { throw new Error("boom"); } };'),
      entries: [ENTRY],
    });
    expect(broken.passed).toBe(false);
    expect(broken.output).toContain(
      '✗ lower-cases a single word\n    Error: boom\n      at src/slugify.js:1:',
    );
    expect(broken.output).toContain('at test/slugify.test.js:');
    const printed = await runNodeTests({
      workspace: workspaceWith(
        'console.log(new Error("where").stack); module.exports = { slugify: (s) => s };',
      ),
      entries: [ENTRY],
    });
    expect(printed.output).toContain('at src/slugify.js:1:');
    expect(printed.output).not.toContain(process.cwd());
    expect(printed.output).not.toMatch(/\/(work|home|usr|tmp)\//);
  });

  it('ends an infinite loop at the time limit with an is_error result, while the server keeps serving', async () => {
    const { result, ticks } = await runCheckWatchingLoop('while (true) {}');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^FAIL\n[\s\S]*Tests timed out after 2000 ms of CPU time \(an infinite loop\?\)/,
    );
    expect(ticks).toBeGreaterThan(0);
  });

  it('ends a runaway allocation at the memory limit with an is_error result', async () => {
    const { result, ticks } = await runCheckWatchingLoop(
      'const keep = []; for (;;) keep.push(new Array(1e6).fill(7));',
    );
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^FAIL\nTests ran out of memory: the test process exceeded its \d+ MB memory limit and was killed/,
    );
    expect(ticks).toBeGreaterThan(0);
  });

  it('stops memory outside the JS heap (typed arrays) from outside too', async () => {
    const { result } = await runCheckWatchingLoop(
      'const keep = []; for (;;) keep.push(new Uint8Array(5e7).fill(1));',
    );
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/memory limit/);
  });

  it('cannot be fooled by a printed or forged report', async () => {
    const forged = '{"results":[{"name":"all","ok":true}],"loadErrors":[],"logs":[],"timedOut":false}';
    const source =
      `console.log("PASS"); console.log(${JSON.stringify(forged)});` +
      `JSON.stringify = () => ${JSON.stringify(forged)}; Array.prototype.push = function () { return 0; };` +
      'module.exports = { slugify: (s) => s };';
    const result = await runNodeTests({ workspace: workspaceWith(source), entries: [ENTRY] });
    expect(result.passed).toBe(false);
    expect(result.output).toMatch(/0 passed, 4 failed/);
  });

  it('never runs workspace code outside the time limit through string conversion', async () => {
    // The old check converted the vm's answer with String() outside the vm timeout: with the
    // runner's JSON.stringify replaced by this, the server's thread looped forever.
    const source = `JSON.stringify = () => ({ toString() { for (;;) {} } });\n${FIXED}`;
    const result = await runNodeTests({ workspace: workspaceWith(source), entries: [ENTRY] });
    expect(result.passed).toBe(true);
    expect(result.output).toMatch(/4 passed, 0 failed/);
  });

  it('gives workspace code no process, environment or Node modules', async () => {
    const source =
      'let found = [];' +
      'try { found.push(typeof this.constructor.constructor("return process")()); } catch (e) { found.push(e.name); }' +
      'try { require("fs"); found.push("fs"); } catch (e) { found.push(e.message); }' +
      'console.log(found.join(" | ")); module.exports = { slugify: (s) => s };';
    const result = await runNodeTests({ workspace: workspaceWith(source), entries: [ENTRY] });
    expect(result.output).toContain("ReferenceError | Cannot find module 'fs' from 'src'");
  });

  it('stops at once when the run is aborted', async () => {
    const controller = new AbortController();
    const pending = runNodeTests({
      workspace: workspaceWith('while (true) {}'),
      entries: [ENTRY],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.stopped).toBe('aborted');
    expect(result.output).toBe('Tests not finished: the run was aborted.');
  });
});

describe('run_check on the virtual clock', () => {
  it('holds run time while the child works, so a short tool timeout does not fire on wall time', async () => {
    const t = setup({ config: { timeoutMs: 10 } });
    const { result } = await t.call('run_check');
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/^FAIL\n✓ lower-cases a single word/);
  });
});
