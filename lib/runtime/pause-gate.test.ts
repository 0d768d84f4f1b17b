import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import type { ControlMessage } from './types';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';

/** Two overloaded answers in a row: the retry function schedules two backoffs. */
const OVERLOADED = {
  rules: [
    {
      id: 'o',
      enabled: true,
      when: { kind: 'requests' as const, numbers: [1, 2] },
      action: { type: 'http_error' as const, status: 529 as const },
    },
  ],
  tools: [],
};

/** Request 1's stream goes quiet in the middle of its text: the stream watchdog ends the wait. */
const STALL = {
  rules: [
    {
      id: 's',
      enabled: true,
      when: { kind: 'requests' as const, numbers: [1] },
      action: { type: 'stall' as const, during: 'text' as const },
    },
  ],
  tools: [],
};

const PAUSE_EVENTS = new Set(['paused', 'resumed']);

/** The log as it would read without its pause: the pause's own events out, seq and run_id left aside. */
function withoutPause(events: RunEvent[]): unknown[] {
  return events
    .filter((e) => !PAUSE_EVENTS.has(e.event))
    .map(({ seq: _seq, run_id: _runId, ...rest }) => {
      if (rest.event !== 'run_start') return rest;
      // The config names its breakpoints; the run is otherwise the same.
      const { pause: _pause, ...config } = rest.config;
      return { ...rest, config };
    });
}

/** Answers each pause a little later in wall time, as a person would: the actions in turn, then continue. */
function person(actions: Array<'step' | 'continue'>, wallMs = 5) {
  return (event: RunEvent, control: (message: ControlMessage) => void): void => {
    if (event.event !== 'paused') return;
    const action = actions.shift() ?? 'continue';
    setTimeout(() => control({ action, by: 'api' }), wallMs);
  };
}

describe('breakpoints on the virtual clock', () => {
  it('pause after retry_scheduled before the backoff runs down, step one event, continue; the log is the unpaused log plus the pause', async () => {
    const config = { seed: 4, faults: OVERLOADED, budgets: { maxIterations: 3 } };
    const plain = await runToEnd(config);
    const paused = await runToEnd(
      { ...config, pause: { breakpoints: [{ on: 'event', event: 'retry_scheduled' }] } },
      { onEvent: person(['step']) },
    );
    const stops = ofType(paused, 'paused');
    const retries = ofType(paused, 'retry_scheduled');
    expect(retries).toHaveLength(2);
    // The first pause: on the retry_scheduled event, before its backoff wait.
    expect(stops[0]).toMatchObject({
      trigger: 'breakpoint',
      breakpoint: { on: 'event', event: 'retry_scheduled' },
      after_seq: retries[0]!.seq,
      clock: 'held',
    });
    expect(stops[0]!.at).toMatch(/^before a wait of /);
    expect(stops[0]!.ts).toBe(retries[0]!.ts);
    // The step: one event on, then paused again.
    const resumed = ofType(paused, 'resumed');
    expect(resumed[0]).toMatchObject({ action: 'step', by: 'api' });
    expect(stops[1]).toMatchObject({ trigger: 'step', after_seq: resumed[0]!.seq + 1 });
    expect(resumed[1]).toMatchObject({ action: 'continue' });
    // The second retry_scheduled is a breakpoint again.
    expect(stops.some((s) => s.after_seq === retries[1]!.seq)).toBe(true);
    // Run time stood still through every pause.
    for (const [k, stop] of stops.entries()) expect(resumed[k]!.ts).toBe(stop.ts);
    expect(withoutPause(paused)).toEqual(withoutPause(plain));
  });

  it('pauses before request N goes out, and on a cost over the line', async () => {
    const config = { seed: 2, budgets: { maxIterations: 4 } };
    const plain = await runToEnd(config);
    const firstCall = ofType(plain, 'llm_call')[0]!;
    const line = firstCall.usd_so_far / 2;
    const events = await runToEnd(
      {
        ...config,
        pause: {
          breakpoints: [
            { on: 'request', request: 2 },
            { on: 'cost', usd: line },
          ],
        },
      },
      { onEvent: person([]) },
    );
    const stops = ofType(events, 'paused');
    expect(stops.map((s) => s.breakpoint?.on)).toEqual(['cost', 'request']);
    expect(stops[0]!.after_seq).toBe(ofType(events, 'llm_call')[0]!.seq);
    expect(stops[0]!.reason).toContain(`cost over $${line}`);
    expect(stops[1]!.at).toBe('before request 2 goes to the vendor');
    // Request 2 had not gone out when the run paused: its stream opened after the pause.
    const second = ofType(events, 'model_request')[1]!;
    const opened = ofType(events, 'stream_open').find((e) => e.seq > second.seq)!;
    expect(opened.seq).toBeGreaterThan(stops[1]!.seq);
    expect(withoutPause(events)).toEqual(withoutPause(plain));
  });

  it('a breakpoint set while the run runs, a pause asked for, and cancel: the run ends aborted', async () => {
    let sent = false;
    const events = await runToEnd(
      { seed: 2, budgets: { maxIterations: 4 } },
      {
        onEvent: (event, control) => {
          if (event.event === 'llm_call' && !sent) {
            sent = true;
            control({ action: 'set_breakpoints', breakpoints: [{ on: 'tool' }], by: 'cli' });
          }
          if (event.event === 'paused') setTimeout(() => control({ action: 'cancel', by: 'playground' }), 5);
        },
      },
    );
    const [stop] = ofType(events, 'paused');
    expect(stop).toMatchObject({ trigger: 'breakpoint', breakpoint: { on: 'tool' } });
    expect(stop!.at).toMatch(/^before the \w+ call .+ runs$/);
    expect(ofType(events, 'resumed')[0]).toMatchObject({ action: 'cancel', by: 'playground' });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    expect(ofType(events, 'tool_call')).toHaveLength(0);
  });

  it('says so when asked to go on while not paused', async () => {
    let sent = false;
    const events = await runToEnd(
      { seed: 2, budgets: { maxIterations: 2 } },
      {
        onEvent: (event, control) => {
          if (event.event === 'llm_call' && !sent) {
            sent = true;
            control({ action: 'continue', by: 'api' });
          }
        },
      },
    );
    expect(ofType(events, 'log').map((e) => e.message)).toContain(
      'continue asked for by api, but the run is not paused: nothing to do',
    );
  });
});

describe("a paused run's stream watchdog never fires during the pause", () => {
  /** Pauses as the first text arrives (before the stall), holds `holdMs` of wall time, then continues. */
  function pauseAtFirstText(holdMs: number, seen: { firedWhilePaused: boolean }) {
    let asked = false;
    let paused = false;
    return (event: RunEvent, control: (message: ControlMessage) => void): void => {
      if (event.event === 'content_delta' && event.kind === 'text' && !asked) {
        asked = true;
        control({ action: 'pause', by: 'api' });
      }
      if (event.event === 'watchdog_fired' && paused) seen.firedWhilePaused = true;
      if (event.event === 'paused') {
        paused = true;
        setTimeout(() => {
          paused = false;
          control({ action: 'continue', by: 'api' });
        }, holdMs);
      }
    };
  }

  it('on the virtual clock: time stands still, and the log is the unpaused log plus the pause', async () => {
    const config = { seed: 5, task: 'Describe this project.', faults: STALL, budgets: { maxIterations: 2 } };
    const plain = await runToEnd(config);
    const seen = { firedWhilePaused: false };
    const events = await runToEnd(config, { onEvent: pauseAtFirstText(100, seen) });
    const [stop] = ofType(events, 'paused');
    const [fired] = ofType(events, 'watchdog_fired');
    expect(stop).toMatchObject({ trigger: 'request', reason: 'a pause was asked for (by api)' });
    expect(fired!.seq).toBeGreaterThan(ofType(events, 'resumed')[0]!.seq);
    expect(seen.firedWhilePaused).toBe(false);
    expect(withoutPause(events)).toEqual(withoutPause(plain));
  });

  it('on the real clock: a pause longer than the watchdog window, and the window still runs in full after it', async () => {
    // At 0.01 the 5 s watchdog is 50 ms of wall time; the pause holds 400 ms (40 s of run time).
    const config = {
      clock: 'real' as const,
      timeScale: 0.01,
      seed: 5,
      task: 'Describe this project.',
      faults: STALL,
      budgets: { maxIterations: 2 },
      recovery: { watchdog: { baseMs: 5_000 } },
    };
    const seen = { firedWhilePaused: false };
    const events = await runToEnd(config, { onEvent: pauseAtFirstText(400, seen) });
    const [stop] = ofType(events, 'paused');
    const [resumed] = ofType(events, 'resumed');
    const [fired] = ofType(events, 'watchdog_fired');
    expect(seen.firedWhilePaused).toBe(false);
    expect(fired!.seq).toBeGreaterThan(resumed!.seq);
    // Run time stood still through the pause: the resume reads the pause's time.
    expect(resumed!.ts).toBe(stop!.ts);
    // The window counts from the last content before the stall, without the pause in it.
    const lastText = ofType(events, 'content_delta')
      .filter((e) => e.seq < fired!.seq && e.attempt === fired!.attempt)
      .at(-1)!;
    // Not to the millisecond: on the real clock at this scale a moment of wall time between the
    // part's arrival and its event's stamp is 100× that in run time, and a busy machine makes it
    // longer. A window spent during the pause would fire at the resume, a few ms of run time after
    // the last text; one that ran in full after it fires near 5 s after it.
    expect(fired!.ts - lastText.ts).toBeGreaterThan(2_500);
    expect(fired!.ts - lastText.ts).toBeLessThan(5_000 + 30_000);
  });
});

describe('the gate costs an unpaused run nothing', () => {
  it('with breakpoints that never match, the log is the same event for event', async () => {
    const config = { seed: 3, faults: OVERLOADED, budgets: { maxIterations: 3 } };
    const plain = await runToEnd(config);
    const watched = await runToEnd({
      ...config,
      pause: {
        breakpoints: [
          { on: 'request', request: 999 },
          { on: 'event', event: 'compaction' },
        ],
      },
    });
    expect(withoutPause(watched)).toEqual(withoutPause(plain));
    expect(ofType(watched, 'paused')).toHaveLength(0);
  });
});
