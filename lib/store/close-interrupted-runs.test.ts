import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, createSqliteRunStore } from './sqlite-run-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-restart-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A run cut off mid-flight: its first events stored, no terminate. */
async function leaveRunning(id: string, events = 3): Promise<void> {
  const before = createSqliteRunStore({ dir });
  await before.createRun({ id, config: sampleConfig() });
  await before.appendEvents({ runId: id, ...batchOf(sampleRunEvents({ runId: id }), 0, events) });
  await before.close(); // the process "dies": nothing more is written
}

function setOwner(id: string, owner: string | null): void {
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.prepare('UPDATE runs SET owner = ? WHERE id = ?').run(owner, id);
  db.close();
}

describe('closing runs a previous process left running', () => {
  it('closes them at store open with a server_restart terminate after the last stored event', async () => {
    await leaveRunning('cut');
    const after = createSqliteRunStore({ dir });
    const record = await after.getRun('cut');
    expect(record?.summary).toMatchObject({
      status: 'failed',
      reason: 'server_restart',
      complete: false,
      event_count: 4,
    });
    const end = (await after.readEvents({ runId: 'cut' })).at(-1);
    expect(end).toMatchObject({ seq: 3, event: 'terminate', reason: 'server_restart', input_tokens: 1000 });
    expect((await after.listRuns()).filter((r) => r.status === 'running')).toEqual([]);
    await after.close();
  });

  it('closes a run that has no owner recorded (written before owners existed)', async () => {
    await leaveRunning('legacy', 1);
    setOwner('legacy', null);
    const after = createSqliteRunStore({ dir });
    expect((await after.getRun('legacy'))?.summary.reason).toBe('server_restart');
    await after.close();
  });

  it('leaves alone a run whose owner is another live process on the same data folder', async () => {
    await leaveRunning('elsewhere');
    const parent = process.ppid; // alive for the whole test, and not this process
    setOwner('elsewhere', `${os.hostname()}:${parent}:another-opening`);
    const after = createSqliteRunStore({ dir });
    expect((await after.getRun('elsewhere'))?.summary.status).toBe('running');
    await after.close();
  });

  it('closes a run whose owning process has exited', async () => {
    await leaveRunning('dead');
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    setOwner('dead', `${os.hostname()}:${Number(exited.stdout)}:gone`);
    const after = createSqliteRunStore({ dir });
    expect((await after.getRun('dead'))?.summary.reason).toBe('server_restart');
    await after.close();
  });
});
