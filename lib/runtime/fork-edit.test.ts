import { describe, expect, it } from 'vitest';
import { ForkSpecSchema, type ForkSpec, type RunEvent } from '@/lib/protocol';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { launchRun } from './launch-run';
import { forkSpecOf, planFork } from './plan-fork';

const PARENT = { provider: { vendor: 'sim-anthropic' as const, thinking: true }, seed: 7 };
const EDITED = 'EDITED BY HAND: the file is empty';

/** Forks a stored log as the spec says and runs the child to its end, keeping each vendor request body. */
async function forkRun(
  parent: RunEvent[],
  spec: Omit<ForkSpec, 'runId'>,
  runId = 'child',
): Promise<{ events: RunEvent[]; bodies: string[] }> {
  const start = ofType(parent, 'run_start')[0]!;
  const plan = planFork({
    spec: { runId: start.run_id, ...spec },
    parent: { config: start.config, running: false },
    events: parent,
  });
  if (!plan.ok) throw new Error(plan.problems.join('; '));
  const events: RunEvent[] = [];
  const bodies: string[] = [];
  const handle = launchRun({
    runId,
    config: plan.config,
    fork: plan.fork,
    onEvent: (e) => events.push(e),
    onVendorRequest: ({ body }) => bodies.push(body),
  });
  await handle.done;
  return { events, bodies };
}

/** The parent's turn-3 tool call (a finished run of at least four turns). */
async function parentWithTurn3(): Promise<{ parent: RunEvent[]; call: { id: string; result: string } }> {
  const parent = await runToEnd(PARENT, { runId: 'parent' });
  const call = ofType(parent, 'tool_call').find((c) => c.iteration === 3);
  if (!call?.call_id || call.result === undefined) throw new Error('the parent has no tool call at turn 3');
  return { parent, call: { id: call.call_id, result: call.result } };
}

describe('edit, then fork', () => {
  it('a tool result edited at turn 3: logged before/after after the copied turns, sent to the vendor, the first divergence', async () => {
    const { parent, call } = await parentWithTurn3();
    expect(terminateOf(parent).reason).toBe('end_turn');
    const { events: child, bodies } = await forkRun(parent, {
      atTurn: 3,
      edits: [{ kind: 'tool_result', callId: call.id, content: EDITED, isError: true }],
      by: 'playground',
    });

    const link = ofType(child, 'forked_from')[0]!;
    const [edit, ...more] = ofType(child, 'fork_edit');
    expect(more).toEqual([]);
    // Right after the copied turns, before anything the fork does itself.
    expect(edit!.seq).toBe(link.seq + link.copied_events + 1);
    expect(edit).toMatchObject({
      iteration: 3,
      target: { kind: 'tool_result', call_id: call.id, turn: 3 },
      before: call.result,
      after: EDITED,
      before_is_error: false,
      after_is_error: true,
      by: 'playground',
    });
    expect(edit!.where).toMatch(new RegExp(`^the result of \\w+ \\(call ${call.id}\\) at turn 3$`));
    // The copied tool_call keeps the parent's result: the log says what happened, the edit what changed.
    expect(ofType(child, 'tool_call').find((c) => c.call_id === call.id)?.result).toBe(call.result);

    // The fork's first request carries the edited result, not the original.
    expect(bodies[0]).toContain(EDITED);
    expect(bodies[0]).not.toContain(JSON.stringify(call.result).slice(1, -1));
    expect(terminateOf(child).reason).toBeDefined();

    // The run view: the call keeps what the tool returned, beside what the fork sent instead.
    const view = foldRawEvents(initialRunViewState(), child);
    const shown = view.turns.find((t) => t.iteration === 3)!.toolCalls.find((c) => c.callId === call.id)!;
    expect([shown.result, shown.edit?.after, shown.edit?.isError, shown.edit?.by]).toEqual([
      call.result,
      EDITED,
      true,
      'playground',
    ]);

    // Compare: the edit is where parent and fork first differ, at turn 3.
    const divergence = firstDivergence(parent, child)!;
    expect(divergence.turn).toBe(3);
    expect(divergence.b?.seq).toBe(edit!.seq);
    expect(divergence.b?.label).toBe(`${edit!.where} edited by playground`);
    expect(divergence.description).toBe(`B starts from an edited state: ${edit!.where} edited by playground`);
  });

  it('replay: the spec read back from the fork’s log makes the same log again (same seed, config and edits)', async () => {
    const { parent, call } = await parentWithTurn3();
    const spec = {
      atTurn: 3,
      edits: [
        { kind: 'tool_result' as const, callId: call.id, content: EDITED },
        { kind: 'message' as const, turn: 3, role: 'assistant' as const, text: 'I will read it again.' },
        { kind: 'params' as const, maxOutputTokens: 2048 },
      ],
    };
    const first = await forkRun(parent, spec);
    const again = forkSpecOf(first.events)!;
    // The error flag the edit left is said outright (the original's, here).
    expect(again).toEqual({
      runId: 'parent',
      ...spec,
      edits: [{ ...spec.edits[0], isError: false }, ...spec.edits.slice(1)],
      by: 'api',
    });
    const second = await forkRun(parent, again);
    expect(second.events).toEqual(first.events);
    expect(second.bodies).toEqual(first.bodies);
    // The edited state reached the vendor: the reply's text, the result and the output cap.
    const body = JSON.parse(first.bodies[0]!) as { max_tokens: number };
    expect(body.max_tokens).toBe(2048);
    expect(first.bodies[0]).toContain('I will read it again.');
    expect(ofType(first.events, 'run_start')[0]!.config.maxOutputTokens).toBe(2048);
  });

  it('a fork of the fork starts from the edited state: its logged edits apply again', async () => {
    const { parent, call } = await parentWithTurn3();
    const { events: child } = await forkRun(parent, {
      atTurn: 3,
      edits: [{ kind: 'tool_result', callId: call.id, content: EDITED }],
    });
    const turns = ofType(child, 'iteration_start').map((e) => e.iteration);
    expect(Math.max(...turns)).toBeGreaterThan(3);
    // Fork the fork at its own turn 3 (the edit's turn), no edits of its own.
    const grand = await forkRun(child, { atTurn: 3 }, 'grandchild');
    expect(grand.bodies[0]).toContain(EDITED);
    // The copied edit is the fork's, not the grandchild's own: its replay spec has no edits.
    expect(forkSpecOf(grand.events)).toEqual({ runId: 'child', atTurn: 3 });
    expect(firstDivergence(child, grand.events)).toBeNull();
  });

  it('an edit that cannot apply is refused, naming the fork.edits field and what to send', async () => {
    const { parent, call } = await parentWithTurn3();
    const config = ofType(parent, 'run_start')[0]!.config;
    const plan = (edits: ForkSpec['edits'], atTurn = 3) =>
      planFork({
        spec: { runId: 'parent', atTurn, edits },
        parent: { config, running: false },
        events: parent,
      });
    expect(plan([{ kind: 'tool_result', callId: 'nope', content: 'x' }])).toMatchObject({
      ok: false,
      status: 400,
      problems: [
        expect.stringMatching(
          /^fork\.edits\.0\.callId: no tool result for call "nope" up to this turn; the calls with results are .*\b/,
        ),
      ],
    });
    // A result the fork does not carry yet: turn 4's call when forking at 2.
    expect(plan([{ kind: 'tool_result', callId: call.id, content: 'x' }], 2)).toMatchObject({ ok: false });
    expect(plan([{ kind: 'message', turn: 9, role: 'assistant', text: 'x' }])).toMatchObject({
      problems: ['fork.edits.0.turn: the fork starts after turn 3; edit a message of turns 0 to 3'],
    });
    expect(plan([{ kind: 'message', turn: 3, role: 'user', text: 'x' }])).toMatchObject({
      problems: [
        expect.stringMatching(
          /^fork\.edits\.0\.kind: turn 3's user message holds tool results; edit one with kind "tool_result"/,
        ),
      ],
    });
    // The HTTP shape: zod names the field.
    const bad = ForkSpecSchema.safeParse({
      runId: 'p',
      atTurn: 3,
      edits: [{ kind: 'params', maxOutputTokens: 1 }],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['edits', 0, 'maxOutputTokens']);
    const unknown = ForkSpecSchema.safeParse({ runId: 'p', atTurn: 3, edits: [{ kind: 'temperature' }] });
    expect(unknown.error!.issues[0]!.message).toBe('kind must be "tool_result", "message" or "params"');
  });
});
