import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from './test';
import { freePort } from '../lib/testing/local-process';

/** A `next start` in room mode of a spec's own (the shared servers are not rooms). */
export interface RoomServer {
  baseURL: string;
  /** Stops the server's process group (npx and the next server beneath it) and removes its data. */
  stop(): void;
}

/**
 * Starts the build in room mode with these codes and its own data folder, and resolves once
 * the API answers (in a room, 401 without a session). `env` adds to the server's environment.
 */
export async function startRoomServer(options: {
  roomCode: string;
  teacherCode: string;
  name: string;
  env?: Record<string, string>;
}): Promise<RoomServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = path.join('.data', `e2e-${options.name}-${process.pid}`);
  const server: ChildProcess = spawn('npx', ['next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      LOOP_LAB_ROOM_CODE: options.roomCode,
      LOOP_LAB_TEACHER_CODE: options.teacherCode,
      LOOP_LAB_DATA_DIR: dataDir,
      ...options.env,
    },
    stdio: 'ignore',
    detached: true,
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${baseURL}/api/scenarios`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(401);
  return {
    baseURL,
    stop() {
      if (server.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
