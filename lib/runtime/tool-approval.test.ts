import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import type { ControlMessage } from './types';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';

type Decide = (call: { id: string; tool: string; args: unknown }) => ControlMessage;

/** Decides each call that waits for approval a little later in wall time, as a person would. */
function decider(decide: Decide) {
  return (event: RunEvent, control: (message: ControlMessage) => void): void => {
    if (event.event !== 'paused' || !event.call) return;
    const call = event.call;
    setTimeout(() => control(decide(call)), 5);
  };
}

const BASE = { seed: 2, budgets: { maxIterations: 12 } };

describe('tool approval', () => {
  it('holds every call named by the config, with its arguments in view; approved, it runs as written', async () => {
    const events = await runToEnd(
      { ...BASE, pause: { approval: { tools: ['list_files'] } } },
      { onEvent: decider(() => ({ action: 'approve', by: 'playground', reason: 'looks harmless' })) },
    );
    const waits = ofType(events, 'paused');
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits)
      expect(wait).toMatchObject({ trigger: 'approval', clock: 'held', call: { tool: 'list_files' } });
    const decisions = ofType(events, 'tool_approval');
    expect(decisions).toHaveLength(waits.length);
    expect(decisions[0]).toMatchObject({
      decision: 'approved',
      by: 'playground',
      reason: 'looks harmless',
      tool: 'list_files',
      call_id: waits[0]!.call!.id,
    });
    // The approved call ran after its decision; calls to other tools never waited.
    const ran = ofType(events, 'tool_call').find((e) => e.call_id === waits[0]!.call!.id)!;
    expect(ran.seq).toBeGreaterThan(decisions[0]!.seq);
    const others = ofType(events, 'tool_call').filter((e) => e.tool !== 'list_files');
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((e) => !decisions.some((d) => d.call_id === e.call_id))).toBe(true);
  });

  it('denied, the call does not run and the model receives the message as its error result', async () => {
    const bodies: string[] = [];
    const message = 'Do not touch the workspace today.';
    const events = await runToEnd(
      { ...BASE, pause: { approval: { tools: 'writes' } } },
      {
        onEvent: decider(() => ({ action: 'deny', message, by: 'api', reason: 'read-only day' })),
        onVendorRequest: ({ body }) => bodies.push(body),
      },
    );
    const [wait] = ofType(events, 'paused');
    expect(wait).toBeDefined();
    expect(['write_file', 'edit_file']).toContain(wait!.call!.tool);
    const [denied] = ofType(events, 'tool_approval');
    expect(denied).toMatchObject({ decision: 'denied', by: 'api', message, reason: 'read-only day' });
    expect(ofType(events, 'tool_call').some((e) => e.call_id === denied!.call_id)).toBe(false);
    // The next request carries the denial as the call's result, and the run went on.
    expect(bodies.some((b) => b.includes(message))).toBe(true);
    expect(ofType(events, 'iteration_start').some((e) => e.seq > denied!.seq)).toBe(true);
  });

  it('edited, the call runs with the arguments given, and the event keeps both', async () => {
    let edited = false;
    const events = await runToEnd(
      { ...BASE, pause: { approval: { tools: ['read_file'] } } },
      {
        onEvent: decider((call) => {
          if (edited) return { action: 'approve', by: 'api' };
          edited = true;
          return { action: 'edit', callId: call.id, args: { path: 'package.json' }, by: 'cli' };
        }),
      },
    );
    const [decision] = ofType(events, 'tool_approval');
    expect(decision).toMatchObject({ decision: 'edited', by: 'cli', edited_args: { path: 'package.json' } });
    expect(decision!.args).not.toEqual({ path: 'package.json' });
    const ran = ofType(events, 'tool_call').find((e) => e.call_id === decision!.call_id)!;
    expect(ran.args).toEqual({ path: 'package.json' });
  });

  it('with a timeout on the virtual clock, nobody decides in run time, so the call is denied by the timeout', async () => {
    const events = await runToEnd({ ...BASE, pause: { approval: { tools: 'writes', timeoutMs: 30_000 } } });
    const [wait] = ofType(events, 'paused');
    expect(wait).toMatchObject({ trigger: 'approval', clock: 'running', timeout_ms: 30_000 });
    const [denied] = ofType(events, 'tool_approval');
    expect(denied).toMatchObject({ decision: 'denied', by: 'timeout' });
    expect(denied!.ts - wait!.ts).toBe(30_000);
  });

  it('a decision with no call waiting is a warning in the log, not applied', async () => {
    let sent = false;
    const events = await runToEnd(BASE, {
      onEvent: (event, control) => {
        if (event.event === 'llm_call' && !sent) {
          sent = true;
          control({ action: 'approve', by: 'api' });
        }
      },
    });
    expect(ofType(events, 'log').map((e) => e.message)).toContain(
      'approve from api not applied: no tool call is waiting for approval',
    );
  });
});
