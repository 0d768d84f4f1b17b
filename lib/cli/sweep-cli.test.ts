import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SweepExportSchema } from '@/lib/sweeps/sweep-export';
import { validateXml } from '@/lib/testing/xmllint';
import { OUTAGE_GRID } from '@/lib/sweeps/execute-sweep-grid.testkit';

const dir = mkdtempSync(join(tmpdir(), 'loop-lab-sweep-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sweepCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/sweep-main.ts', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        LOOP_LAB_DATA_DIR: join(dir, 'data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Writes the grid the sweeps below share to `file` in the test folder: codesmith and naive, each
 * answered 529 on its second request, seeds 1 and 2; a `name` goes first, any other field last.
 */
function writeOverloadedGrid(file: string, extra: { name?: string; assert?: unknown[] } = {}): string {
  const { name, ...last } = extra;
  const grid = join(dir, file);
  writeFileSync(
    grid,
    JSON.stringify({
      name,
      ...OUTAGE_GRID,
      seeds: [1, 2],
      ...last,
    }),
  );
  return grid;
}

describe('npm run sweep', () => {
  it('runs a grid on the worker pool, prints progress and the table, and writes the results', async () => {
    const grid = writeOverloadedGrid('grid.json');
    const out = join(dir, 'results.json');
    const { code, stdout, stderr } = await sweepCli(['--grid', grid, '--workers', '2', '--out', out]);
    expect(stderr).toMatch(/4\/4 runs · [\d.]+ runs\/s/);
    expect(stdout).toMatch(/configuration\s+scenario\s+faults/);
    expect(stdout).toMatch(/codesmith\s+fix-failing-test\s+overloaded\s+sim-anthropic\s+2\s+100 %\*/);
    expect(stdout).toMatch(/naive\s+fix-failing-test\s+overloaded\s+sim-anthropic\s+2\s+0 %/);
    expect(stdout).toContain('completed: 4 of 4 runs');
    expect(code).toBe(0);
    const results = SweepExportSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(results.rows.map((r) => [r.config, r.completion_rate])).toEqual([
      ['codesmith', 1],
      ['naive', 0],
    ]);
    expect(results.runs).toHaveLength(4);
  }, 180_000);

  it('--rerun-failed runs only what failed in a stored sweep, as a new sweep naming it', async () => {
    const grid = writeOverloadedGrid('outage.json', { name: 'outage' });
    const first = join(dir, 'outage-results.json');
    expect((await sweepCli(['--grid', grid, '--workers', '2', '--out', first, '--quiet'])).code).toBe(0);
    const old = SweepExportSchema.parse(JSON.parse(readFileSync(first, 'utf8')));
    const failed = old.runs.filter((r) => !r.complete).map((r) => r.job);
    expect(failed).toHaveLength(2);
    const out = join(dir, 'rerun-results.json');
    const rerun = await sweepCli(['--rerun-failed', old.sweep.id, '--workers', '2', '--out', out, '--quiet']);
    expect(rerun.stderr).toBe('');
    expect(rerun.stdout).toContain('completed: 2 of 2 runs');
    const results = SweepExportSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(results.sweep.name).toBe('re-run of outage: 2 failed');
    expect(results.grid.rerun?.of).toBe(old.sweep.id);
    expect(results.runs.map((r) => r.job)).toEqual(failed);
    // Bad input: both a grid and a re-run, cassettes of a simulated sweep, a sweep not stored.
    const both = await sweepCli(['--grid', grid, '--rerun-failed', old.sweep.id]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--rerun-failed and --grid: give one');
    const cassettes = await sweepCli(['--rerun-failed', old.sweep.id, '--from-cassettes']);
    expect(cassettes.code).toBe(2);
    expect(cassettes.stderr).toContain('--rerun-failed: fromCassettes: only a real endpoint');
    const missing = await sweepCli(['--rerun-failed', 'sweep-nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--rerun-failed: no sweep "sweep-nope"');
  }, 240_000);

  it('refuses a bad grid with exit status 2, naming the field', async () => {
    const grid = join(dir, 'bad.json');
    writeFileSync(
      grid,
      JSON.stringify({ configurations: [{ id: 'x', preset: 'fastest' }], seeds: { from: 5, to: 1 } }),
    );
    const { code, stderr } = await sweepCli(['--grid', grid]);
    expect(code).toBe(2);
    expect(stderr).toContain('configurations.0.preset');
    expect(stderr).toContain('seeds');
  }, 60_000);

  it('exits 3 naming the row when an --assert is unmet, and writes JUnit XML that validates', async () => {
    const grid = writeOverloadedGrid('gated.json', {
      assert: [{ that: 'errors_seen == 0', config: 'codesmith' }],
    });
    const junit = join(dir, 'junit.xml');
    const { code, stdout } = await sweepCli([
      '--grid',
      grid,
      '--quiet',
      '--assert',
      'done_rate >= 0.9',
      '--assert',
      'p95_cost <= 0.05',
      '--junit',
      junit,
    ]);
    expect(stdout).toMatch(
      /FAIL\s+done_rate >= 0\.9\s+naive · fix-failing-test · overloaded · sim-anthropic\s+0\b/,
    );
    expect(stdout).toMatch(
      /ok\s+done_rate >= 0\.9\s+codesmith · fix-failing-test · overloaded · sim-anthropic\s+1\b/,
    );
    expect(stdout).toMatch(/ok\s+errors_seen == 0\s+codesmith/);
    expect(stdout).toContain('1 of 5 assertions failed');
    // Two seeds are too few for the paired test to call even an all-one-way difference.
    expect(stdout).toContain(
      'codesmith (A) vs naive (B) · fix-failing-test · overloaded · sim-anthropic · 2 shared seeds',
    );
    expect(stdout).toMatch(
      /no detectable difference at this sample size on task done: 2 of 2 seeds differ .* about 6 seeds would be needed/,
    );
    expect(code).toBe(3);
    const check = validateXml(junit);
    expect(check.output).toContain('validates');
    expect(check.valid).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="5" failures="1" errors="0"');
    expect(xml).toMatch(
      /<testcase classname="naive · fix-failing-test · overloaded · sim-anthropic" name="done_rate &gt;= 0.9">\s*<failure type="assertion"/,
    );
  }, 180_000);

  it('exits 0 when every assertion holds', async () => {
    const grid = join(dir, 'holds.json');
    writeFileSync(
      grid,
      JSON.stringify({ configurations: [{ id: 'codesmith', preset: 'codesmith' }], seeds: [1] }),
    );
    const { code, stdout } = await sweepCli(['--grid', grid, '--quiet', '--assert', 'done_rate >= 0.9']);
    expect(stdout).toContain('all 1 assertions hold');
    expect(code).toBe(0);
  }, 120_000);

  it('refuses a bad assertion with exit status 2, saying what to write', async () => {
    const grid = join(dir, 'holds.json');
    const { code, stderr } = await sweepCli([
      '--grid',
      grid,
      '--assert',
      'done_rat >= 0.9',
      '--assert',
      'p95_cost <=',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      '--assert "done_rat >= 0.9": unknown metric "done_rat" (did you mean done_rate?)',
    );
    expect(stderr).toContain('--assert "p95_cost <=": write METRIC OP NUMBER, e.g. "done_rate >= 0.9"');
  }, 60_000);
});
