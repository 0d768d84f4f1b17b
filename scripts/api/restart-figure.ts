import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from './processes.testkit';

/**
 * `npm run restart-figure`: starts the API in a real server process, starts runs that will
 * stay in flight (a stalled stream, no watchdog, real clock), SIGKILLs the process, starts
 * it again on the same data folder, and counts the runs left without a terminate event.
 */
export async function restartFigure(
  options: { runs?: number } = {},
): Promise<{ started: number; runningBefore: number; withoutTerminate: number; reasons: string[] }> {
  const runs = options.runs ?? 5;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-restart-'));
  try {
    const first = await serve(dir);
    let base = first.base;
    const ids: string[] = [];
    for (let i = 0; i < runs; i++) {
      const response = await fetch(`${base}/runs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          config: {
            provider: { vendor: 'sim-anthropic' },
            preset: 'naive',
            seed: i + 1,
            faults: {
              rules: [{ id: 'stall', when: { kind: 'always' }, action: { type: 'stall', afterEvents: 2 } }],
              tools: [],
            },
          },
        }),
      });
      if (response.status !== 201)
        throw new Error(`run ${i} refused: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { id: string }).id);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the stalled streams open and events land
    const before = (await (await fetch(`${base}/runs`)).json()) as { id: string; status: string }[];
    const runningBefore = before.filter((r) => ids.includes(r.id) && r.status === 'running').length;
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await serve(dir);
    base = second.base;
    let withoutTerminate = 0;
    const reasons: string[] = [];
    for (const id of ids) {
      const trace = await (await fetch(`${base}/runs/${id}/trace`)).text();
      const last = JSON.parse(trace.trim().split('\n').at(-1) ?? '{}') as { event?: string; reason?: string };
      if (last.event !== 'terminate') withoutTerminate += 1;
      else reasons.push(last.reason ?? '');
    }
    const after = (await (await fetch(`${base}/runs`)).json()) as { id: string; status: string }[];
    // The list is read too: a closed run never shows as running.
    if (after.some((r) => ids.includes(r.id) && r.status === 'running'))
      withoutTerminate = Math.max(withoutTerminate, 1);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    return { started: ids.length, runningBefore, withoutTerminate, reasons };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('restart-figure.ts')) {
  restartFigure().then(
    (figure) => {
      console.log(
        `runs started: ${figure.started}, running when the server was SIGKILLed: ${figure.runningBefore}\n` +
          `runs left without a terminate event after the restart: ${figure.withoutTerminate} (closed as: ${[...new Set(figure.reasons)].join(', ')})`,
      );
      process.exit(figure.withoutTerminate === 0 && figure.runningBefore === figure.started ? 0 : 1);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
