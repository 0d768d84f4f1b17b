import { describe, expect, it } from 'vitest';
import { CreateRunBodySchema } from './http/runs';
import { CreateSweepRequestSchema, SweepGridSchema, countSweepJobs } from './sweeps';
import { TASK_DIR_NOT_FROM_WEB } from './config';

const PIN = { dir: '/tmp/my-task', sha256: 'a'.repeat(64) };
const CONFIGS = [{ id: 'c', preset: 'codesmith' }];

describe('task folders and the web API', () => {
  it('a run config that names a task folder is refused, saying why', () => {
    const run = CreateRunBodySchema.safeParse({
      config: { provider: { vendor: 'sim-anthropic' }, taskDir: PIN },
    });
    expect(run.success).toBe(false);
    expect(run.error!.issues).toContainEqual(
      expect.objectContaining({ path: ['config', 'taskDir'], message: TASK_DIR_NOT_FROM_WEB }),
    );
  });

  it('a sweep that names task folders is refused; a grid file may hold them, as paths or pinned', () => {
    const sweep = CreateSweepRequestSchema.safeParse({
      tasks: ['/tmp/my-task'],
      configurations: CONFIGS,
      seeds: [1],
    });
    expect(sweep.success).toBe(false);
    expect(sweep.error!.issues).toContainEqual(
      expect.objectContaining({ path: ['tasks'], message: TASK_DIR_NOT_FROM_WEB }),
    );
    const grid = SweepGridSchema.parse({
      scenarios: [],
      tasks: ['/tmp/a', { ...PIN, id: 'b' }],
      configurations: CONFIGS,
      seeds: [1, 2, 3],
    });
    expect(grid.tasks).toEqual([{ dir: '/tmp/a' }, { ...PIN, id: 'b' }]);
    expect(countSweepJobs(grid)).toBe(6);
  });

  it('a grid with neither a scenario nor a task is refused by name', () => {
    const grid = SweepGridSchema.safeParse({ scenarios: [], configurations: CONFIGS, seeds: [1] });
    expect(grid.success).toBe(false);
    expect(grid.error!.issues).toContainEqual(expect.objectContaining({ path: ['scenarios'] }));
  });
});
