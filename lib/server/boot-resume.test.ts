import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, DB_FILE_NAME } from '@/lib/store';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { register } from '@/instrumentation';

/**
 * The server's boot hook (instrumentation.ts) takes up the runs a killed process left in flight
 * before any request arrives: nobody has to open a run's page for it to go on.
 */

const dataDir = useTempDataDir('loop-lab-boot-resume-');

const config = RunConfigSchema.parse({
  provider: { vendor: 'sim-anthropic' },
  preset: 'codesmith',
  seed: 5,
  clock: 'virtual',
});

describe('the boot hook', () => {
  it('resumes a run cut off by the previous process without a request', async () => {
    const events: RunEvent[] = [];
    await launchRun({ runId: 'cut', config, onEvent: (event) => events.push(event) }).done;
    const k = Math.floor(events.length / 2);

    // What a SIGKILLed server leaves: half the log, no terminate, its owner gone.
    const before = createSqliteRunStore({ dir: dataDir() });
    await before.createRun({ id: 'cut', config });
    await before.appendEvents({
      runId: 'cut',
      events: events.slice(0, k),
      totals: { inputTokens: 0, outputTokens: 0, usd: 0 },
    });
    await before.close();
    const db = new Database(path.join(dataDir(), DB_FILE_NAME));
    db.prepare('UPDATE runs SET owner = NULL WHERE id = ?').run('cut');
    db.close();

    const runtime = process.env.NEXT_RUNTIME;
    process.env.NEXT_RUNTIME = 'nodejs';
    try {
      await register();
    } finally {
      if (runtime === undefined) delete process.env.NEXT_RUNTIME;
      else process.env.NEXT_RUNTIME = runtime;
    }

    const g = globalThis as typeof globalThis & {
      __loopLabRunRegistry?: { whenFinished(id: string): Promise<void> };
      __loopLabStore?: { readEvents(options: { runId: string }): Promise<RunEvent[]> };
    };
    expect(g.__loopLabRunRegistry).toBeDefined();
    await g.__loopLabRunRegistry!.whenFinished('cut');
    const log = await g.__loopLabStore!.readEvents({ runId: 'cut' });
    expect(log[k]).toMatchObject({ event: 'resumed_after_restart', replayed: k });
    // Past the marker, the run went on to the end the uninterrupted run reached.
    expect(log.at(-1)).toEqual({ ...events.at(-1)!, seq: events.length });
  }, 60_000);

  it('does nothing on the edge runtime', async () => {
    const g = globalThis as typeof globalThis & { __loopLabRunRegistry?: unknown };
    delete g.__loopLabRunRegistry;
    const runtime = process.env.NEXT_RUNTIME;
    process.env.NEXT_RUNTIME = 'edge';
    try {
      await register();
    } finally {
      if (runtime === undefined) delete process.env.NEXT_RUNTIME;
      else process.env.NEXT_RUNTIME = runtime;
    }
    expect(g.__loopLabRunRegistry).toBeUndefined();
  });
});
