import { describe, expect, it } from 'vitest';
import { RunnerPool } from './runner-pool';

describe('RunnerPool', () => {
  it('hands out a fresh child for every check and queues checks past maxActive', async () => {
    const pool = new RunnerPool({ heapMb: 64, warm: 1, maxActive: 1 });
    const first = await pool.acquire();
    let secondArrived = false;
    const second = pool.acquire().then((lease) => {
      secondArrived = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(secondArrived).toBe(false);

    // A child that gets no request (its stdin closes) exits without doing anything.
    const exited = new Promise<number | null>((resolve) => first.child.on('exit', (code) => resolve(code)));
    first.child.stdin!.end();
    expect(await exited).toBe(0);
    first.release();

    const lease = await second;
    expect(lease.child.pid).not.toBe(first.child.pid);
    lease.child.kill('SIGKILL');
    lease.release();
  });
});
