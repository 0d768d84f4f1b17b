import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SweepExportSchema } from '@/lib/sweeps/sweep-export';

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

describe('npm run sweep', () => {
  it('runs a grid on the worker pool, prints progress and the table, and writes the results', async () => {
    const grid = join(dir, 'grid.json');
    writeFileSync(
      grid,
      JSON.stringify({
        configurations: [
          { id: 'codesmith', preset: 'codesmith' },
          { id: 'naive', preset: 'naive' },
        ],
        faultPlans: [
          {
            id: 'overloaded',
            plan: {
              rules: [
                {
                  id: 'o',
                  when: { kind: 'requests', numbers: [2] },
                  action: { type: 'http_error', status: 529 },
                },
              ],
            },
          },
        ],
        seeds: [1, 2],
      }),
    );
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
});
