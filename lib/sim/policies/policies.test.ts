import { describe, it, expect } from 'vitest';
import { createRandom } from '@/lib/clock';
import type { SimPolicyId } from '@/lib/protocol';
import { DEFAULT_SCENARIO_ID, getScenario } from '@/lib/tools';
import { TEST_SCENARIO } from '../sim-fixtures.testkit';
import { createPolicy } from './create-policy';
import { DAMAGE_KINDS, damageArgs } from './damaged-args';
import { runPolicy, scenarioTools, type ToolRunner } from './policy-harness';

const broken: ToolRunner = async () => ({ content: 'Error: workspace unavailable', isError: true });

describe('worker policy', () => {
  it('solves the scenario: list, read, search, check (fails), edit, check (passes), summary', async () => {
    const { run, tools, workspace } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('worker', TEST_SCENARIO),
      tools,
      run,
      task: TEST_SCENARIO.task,
    });
    expect(result.calls.map((c) => c.name)).toEqual([
      'list_files',
      'read_file',
      'read_file',
      'search',
      'run_check',
      'edit_file',
      'run_check',
    ]);
    expect(result.calls[4]!.content).toMatch(/^FAIL/);
    expect(result.calls[6]!.content).toMatch(/^PASS/);
    expect(result.final).toBe(TEST_SCENARIO.hints.summary);
    expect((await TEST_SCENARIO.check(workspace)).passed).toBe(true);
  });

  it("solves the project's default scenario with the real tools", async () => {
    const scenario = getScenario(DEFAULT_SCENARIO_ID)!;
    const { run, tools, workspace } = scenarioTools(scenario);
    expect((await scenario.check(workspace)).passed).toBe(false);
    const result = await runPolicy({
      policy: createPolicy('worker', scenario),
      tools,
      run,
      task: scenario.task,
    });
    expect(result.calls.length).toBeGreaterThanOrEqual(4);
    expect(result.calls.filter((c) => c.isError)).toEqual([]);
    expect(result.final).toBe(scenario.hints.summary);
    expect((await scenario.check(workspace)).passed).toBe(true);
  });

  it('thinks a seed-varied sentence on every turn when thinking is requested', () => {
    const { tools } = scenarioTools(TEST_SCENARIO);
    const policy = createPolicy('worker', TEST_SCENARIO);
    const request = {
      model: 'sim',
      system: '',
      messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'go' }] }],
      tools,
      maxTokens: 1000,
      thinking: true,
    };
    const thoughts = new Set([1, 2, 3, 4, 5, 6].map((seed) => policy(request, createRandom(seed)).thinking));
    expect(thoughts.size).toBeGreaterThan(1);
    expect(policy({ ...request, thinking: false }, createRandom(1)).thinking).toBeUndefined();
  });

  it('adapts to tool errors: re-lists, retries, and gives up in text instead of looping', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    let readFailures = 0;
    const flaky: ToolRunner = async (name, args) =>
      name === 'read_file' && readFailures++ < 1
        ? { content: 'Error: disk hiccup', isError: true }
        : run(name, args);
    const recovered = await runPolicy({
      policy: createPolicy('worker', TEST_SCENARIO),
      tools,
      run: flaky,
      task: 'fix',
    });
    expect(recovered.calls.slice(0, 4).map((c) => c.name)).toEqual([
      'list_files',
      'read_file',
      'list_files',
      'read_file',
    ]);
    expect(recovered.final).toBe(TEST_SCENARIO.hints.summary);

    const gaveUp = await runPolicy({
      policy: createPolicy('worker', TEST_SCENARIO),
      tools,
      run: broken,
      task: 'fix',
    });
    expect(gaveUp.final).toMatch(/^I could not finish the task/);
    expect(gaveUp.calls.length).toBeLessThan(20);
  });

  it('answers in text at once with no tools, and after a couple of calls on a free text task', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const noTools = await runPolicy({
      policy: createPolicy('worker', TEST_SCENARIO),
      tools: [],
      run,
      task: 'explain',
    });
    expect(noTools.calls).toEqual([]);
    const freeText = { ...TEST_SCENARIO, hints: { read: ['README.md'], summary: 'It is a math library.' } };
    const explained = await runPolicy({
      policy: createPolicy('worker', freeText),
      tools,
      run,
      task: 'explain',
    });
    expect(explained.calls.length).toBeLessThanOrEqual(2);
    expect(explained.final).toBe('It is a math library.');
  });
});

describe('misbehaving policies', () => {
  it('repeat-on-failure repeats the exact failing call, then does the work', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('repeat-on-failure', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
    });
    const first = result.calls.slice(0, 4);
    expect(first.every((c) => c.name === 'read_file' && c.argsText === first[0]!.argsText && c.isError)).toBe(
      true,
    );
    expect(result.final).toBe(TEST_SCENARIO.hints.summary);
  });

  it('guess-paths reads a new missing path every turn and never stops on its own: only a budget or the loop guard ends it', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('guess-paths', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
      maxTurns: 20,
    });
    expect(result.calls).toHaveLength(20);
    expect(result.calls.every((c) => c.name === 'read_file' && c.isError)).toBe(true);
    expect(new Set(result.calls.map((c) => c.argsText)).size).toBe(20);
    expect(result.final).toBeUndefined();
  });

  it('write-whole-file writes the fixed file back whole once, then makes the small edit after it', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('write-whole-file', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
    });
    const fix = TEST_SCENARIO.hints.fix!;
    const write = result.calls.find((c) => c.name === 'write_file');
    expect(JSON.parse(write!.argsText)).toEqual({
      path: fix.path,
      content: TEST_SCENARIO.files[fix.path]!.replace(fix.find, fix.replace),
    });
    expect(result.calls.filter((c) => c.name === 'write_file')).toHaveLength(1);
    expect(result.final).toBeDefined();
  });

  it('hallucinate-tool calls a tool that was not offered, then recovers', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('hallucinate-tool', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
    });
    const offered = new Set(tools.map((t) => t.name));
    expect(offered.has(result.calls[0]!.name)).toBe(false);
    expect(result.calls.filter((c) => !offered.has(c.name))).toHaveLength(2);
    expect(result.final).toBe(TEST_SCENARIO.hints.summary);
  });

  it('bad-args sends schema-breaking arguments, then valid ones', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('bad-args', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
      seed: 4,
    });
    expect(result.calls.filter((c) => c.isError).length).toBeGreaterThanOrEqual(3);
    expect(result.final).toBe(TEST_SCENARIO.hints.summary);
  });

  it('damaged-args sends each kind of damage once, resends a failed call valid, and finishes', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const result = await runPolicy({
      policy: createPolicy('damaged-args', TEST_SCENARIO),
      tools,
      run,
      task: 'fix',
      seed: 4,
    });
    const failed = result.calls.filter((c) => c.isError);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    // Every failed (damaged) call is followed by the same tool called with valid arguments.
    for (const c of failed) expect(result.calls[result.calls.indexOf(c) + 1]!.name).toBe(c.name);
    expect(result.final).toBe(TEST_SCENARIO.hints.summary);
  });

  it('damaged-args damages arguments each way it says, or not at all where that kind does not fit', () => {
    const args = { path: 'src/a.js' };
    expect(DAMAGE_KINDS.map((kind) => damageArgs('read_file', args, kind))).toEqual([
      '{"path":"src/a.js",}',
      "{'path': 'src/a.js'}",
      '{path: "src/a.js"}',
      '{"path":"src/a.js","limit":"2000"}',
      '{"path":"src/a.js"',
    ]);
    expect(damageArgs('edit_file', { path: 'a', old_string: "it's" }, 'single-quotes')).toBeUndefined();
    expect(damageArgs('list_files', { path: 'a' }, 'string-number')).toBeUndefined();
    expect(damageArgs('run_check', {}, 'trailing-comma')).toBeUndefined();
  });

  it('ignore-truncation re-reads the same truncated file, then moves on', async () => {
    const { run, tools } = scenarioTools(TEST_SCENARIO);
    const truncating: ToolRunner = async (name, args) => {
      const result = await run(name, args);
      return name === 'read_file'
        ? {
            ...result,
            content: `${result.content.slice(0, 20)}\n\n[TRUNCATED: 500 more characters not shown.]`,
          }
        : result;
    };
    const result = await runPolicy({
      policy: createPolicy('ignore-truncation', TEST_SCENARIO),
      tools,
      run: truncating,
      task: 'fix',
    });
    expect(result.calls.slice(0, 4).map((c) => c.argsText)).toEqual(Array(4).fill('{"path":"src/math.ts"}'));
    expect(result.final).toBeDefined();
  });

  it('long-output writes past the cap, and closes after a few long answers', () => {
    const policy = createPolicy('long-output', TEST_SCENARIO);
    const request = {
      model: 'sim',
      system: '',
      messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'Report.' }] }],
      tools: [],
      maxTokens: 300,
      thinking: false,
    };
    const turn = policy(request, createRandom(1));
    expect(turn.toolCalls).toEqual([]);
    expect(turn.text!.length).toBeGreaterThan(300 * 3);
    const long = { role: 'assistant' as const, parts: [{ type: 'text' as const, text: turn.text! }] };
    const cont = { role: 'user' as const, parts: [{ type: 'text' as const, text: 'Continue.' }] };
    const closing = policy(
      { ...request, messages: [...request.messages, long, cont, long, cont, long, cont] },
      createRandom(1),
    );
    expect(closing.text).toContain(TEST_SCENARIO.hints.summary);
  });

  it.each<SimPolicyId>([
    'worker',
    'repeat-on-failure',
    'hallucinate-tool',
    'bad-args',
    'damaged-args',
    'ignore-truncation',
    'long-output',
    'write-whole-file',
  ])('%s terminates even when every tool fails', async (id) => {
    const { tools } = scenarioTools(TEST_SCENARIO);
    for (const seed of [1, 2, 3]) {
      const result = await runPolicy({
        policy: createPolicy(id, TEST_SCENARIO),
        tools,
        run: broken,
        task: 'fix',
        seed,
        maxTurns: 40,
        maxTokens: 200,
      });
      expect(result.final).toBeDefined();
    }
  });
});
