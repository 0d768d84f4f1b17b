import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import { createToolbox } from '../registry';
import type { CheckTestResult } from '../scenario';
import { createWorkspace } from '../workspace';
import { getScenario, listScenarios } from './index';

/** The names of the tests a check ran, by the file that registered them. */
function namesByFile(results: CheckTestResult[] | undefined): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const r of results ?? []) (byFile[r.file] ??= []).push(r.name);
  return byFile;
}

function toolCtx(files: Record<string, string>) {
  return {
    workspace: createWorkspace({ files }),
    clock: new VirtualClock(),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
}

describe('scenarios', () => {
  it('finds scenarios by id, default first', () => {
    expect(listScenarios()[0]?.id).toBe('fix-failing-test');
    expect(getScenario('fix-failing-test')?.policy).toBe('worker');
    expect(getScenario('nope')).toBeUndefined();
  });

  for (const scenario of listScenarios()) {
    describe(scenario.id, () => {
      it('fails its check before the fix and passes after hints.fix through edit_file', async () => {
        const ctx = toolCtx(scenario.files);
        const toolbox = createToolbox({ scenario });
        const before = await toolbox.get('run_check')!.run({}, ctx);
        expect(before.content).toMatch(/^FAIL\n/);
        expect(before.isError).toBe(false);
        const fix = scenario.hints.fix!;
        const edit = await toolbox
          .get('edit_file')!
          .run({ path: fix.path, old_string: fix.find, new_string: fix.replace }, ctx);
        expect(edit.isError).toBe(false);
        const after = await toolbox.get('run_check')!.run({}, ctx);
        expect(after.content).toMatch(/^PASS\n/);
      });

      it('its shipped and hidden tests register exactly the names it lists, and the fix in its hints passes every one', async () => {
        const fix = scenario.hints.fix!;
        const files = {
          ...scenario.files,
          [fix.path]: scenario.files[fix.path]!.replace(fix.find, fix.replace),
        };
        const shipped = await scenario.check(createWorkspace({ files }));
        expect(shipped.passed, shipped.output).toBe(true);
        expect(namesByFile(shipped.results)).toEqual(scenario.testNames);
        const hidden = await scenario.check(
          createWorkspace({ files: { ...files, ...scenario.hidden.files } }),
          {
            entries: Object.keys(scenario.hidden.files),
          },
        );
        expect(hidden.passed, hidden.output).toBe(true);
        expect(namesByFile(hidden.results)).toEqual(scenario.hidden.names);
        expect(Object.values(scenario.hidden.names).flat().length).toBeGreaterThan(0);
        // Names are unique across the scenario, so a verdict's list of names says which test.
        const all = [...Object.values(scenario.testNames), ...Object.values(scenario.hidden.names)].flat();
        expect(new Set(all).size).toBe(all.length);
      });

      it('keeps its hidden tests where the model cannot see them: not in the files, the task, the hints or a tool description', () => {
        const seen = JSON.stringify([
          scenario.files,
          scenario.task,
          scenario.hints,
          createToolbox({ scenario }).specs(),
        ]);
        for (const [path, content] of Object.entries(scenario.hidden.files)) {
          expect(scenario.files[path], path).toBeUndefined();
          expect(seen).not.toContain(path);
          // Every assertion line of a hidden test is its own: none is in what the model sees.
          for (const line of content.split('\n').filter((l) => /assert\./.test(l)))
            expect(seen, line).not.toContain(line.trim());
        }
        for (const name of Object.values(scenario.hidden.names).flat())
          expect(seen, name).not.toContain(name);
      });

      it('has hints that point at real files and a search that matches', async () => {
        const ctx = toolCtx(scenario.files);
        for (const path of scenario.hints.read) {
          expect(ctx.workspace.read(path), path).toBeDefined();
        }
        if (scenario.hints.search) {
          const found = await createToolbox({ scenario })
            .get('search')!
            .run({ pattern: scenario.hints.search }, ctx);
          expect(found.content).not.toMatch(/^No matches/);
        }
      });
    });
  }

  it('fix-failing-test: the check really executes the code', async () => {
    const scenario = getScenario('fix-failing-test')!;
    const ws = createWorkspace({ files: scenario.files });
    const before = await scenario.check(ws);
    expect(before.output).toContain('✗ joins every word, not just the first two');
    expect(before.output).toContain(
      'expected "loop-lab-agent-loops-that-recover", got "loop-lab: agent loops that recover"',
    );
    ws.write('src/slugify.js', 'while (true) {}');
    expect((await scenario.check(ws)).output).toMatch(/timed out/);
    ws.write(
      'src/slugify.js',
      'module.exports = { slugify: () => this.constructor.constructor("return process")() };',
    );
    expect((await scenario.check(ws)).output).toMatch(/process is not defined/);
    ws.write('src/slugify.js', 'module.exports = { slugify: (');
    expect((await scenario.check(ws)).output).toMatch(/could not load test\/slugify\.test\.js: SyntaxError/);
  });
});

describe('recovery scenarios', () => {
  it('huge-log: the log is far over the truncation limit and search finds the root cause first', async () => {
    const scenario = getScenario('huge-log')!;
    const ctx = toolCtx(scenario.files);
    expect(scenario.files['logs/service.log']!.length).toBeGreaterThan(100_000);
    const found = await createToolbox({ scenario })
      .get('search')!
      .run({ pattern: scenario.hints.search! }, ctx);
    expect(found.content.split('\n')[1]).toMatch(/^logs\/service\.log:1742: .*pool exhausted/);
  });

  it('long-project: the failing check names the wrong region', async () => {
    const scenario = getScenario('long-project')!;
    const result = await scenario.check(createWorkspace({ files: scenario.files }));
    expect(result.output).toContain(
      '✗ gross price of 100.00 in pt\n    AssertionError: expected 12300, got 13200',
    );
    expect(result.output).toMatch(/22 passed, 1 failed/);
    expect(Object.keys(scenario.files).length).toBeGreaterThan(20);
  });
});
