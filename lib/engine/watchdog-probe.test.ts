import { describe, expect, it } from 'vitest';
import { RealClock } from '@/lib/clock';
import { benchProbe, enableBenchProbe } from '@/lib/clock/bench-probe';
import type { ModelRequest } from '@/lib/providers/types';
import { textResponse, type ScriptedResponse } from '@/lib/providers/scripted-provider';
import { ofType } from '@/lib/testing/run-to-end';
import { runScripted } from '@/lib/testing/run-scripted';

/** The title call answers at once; the first foreground request stalls, the second answers. */
function stallThenAnswer() {
  let n = 0;
  return (request: ModelRequest): ScriptedResponse => {
    if (request.tools.length === 0) return textResponse({ text: 'A title' });
    n += 1;
    return n === 1 ? { parts: [], end: { kind: 'stall' } } : textResponse({ text: 'Done.' });
  };
}

describe("the watchdog's lateness goes to the probe in the engine's deps, and nowhere else", () => {
  it('a run on the real clock tells its own probe, and leaves the process-wide bench list alone', async () => {
    // The server's list switched on, as under LOOP_LAB_BENCH_DIAGNOSTICS=1: the engine must not write to it.
    const global = enableBenchProbe();
    global.watchdogLateWallMs.length = 0;
    const late: number[] = [];
    // CodeSmith's 120 s watchdog at a time scale of 0.001: 120 ms of wall time.
    const { events } = await runScripted({
      script: stallThenAnswer(),
      clock: new RealClock(0.001),
      probe: { watchdogFiredLate: (wallMs) => late.push(wallMs) },
    });
    expect(ofType(events, 'watchdog_fired')).toHaveLength(1);
    expect(late).toHaveLength(1);
    expect(late[0]).toBeGreaterThanOrEqual(0);
    expect(benchProbe()?.watchdogLateWallMs).toEqual([]);
  });

  it('measures nothing on the virtual clock, where lateness is not the host’s', async () => {
    const late: number[] = [];
    const { events } = await runScripted({
      script: stallThenAnswer(),
      probe: { watchdogFiredLate: (wallMs) => late.push(wallMs) },
    });
    expect(ofType(events, 'watchdog_fired')).toHaveLength(1);
    expect(late).toEqual([]);
  });
});
