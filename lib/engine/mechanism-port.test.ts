import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { apiError, textResponse, toolCallResponse } from '@/lib/providers/scripted-provider';
import { runScripted } from '@/lib/testing/run-scripted';
import { HOOK_POINTS, type EngineMechanism, type HookPoint, type MechanismModule } from './mechanism-port';

const overloaded = () => ({
  parts: [],
  end: {
    kind: 'error' as const,
    error: apiError({ status: 529, type: 'overloaded_error', message: 'busy' }),
  },
});

/**
 * A fixture mechanism registered by the test alone (no engine file names it): it records each
 * point it is asked at, and decides nothing unless told to.
 */
function recorder(
  name: string,
  calls: string[],
  decide: Partial<Record<HookPoint, (n: number) => boolean>> = {},
): MechanismModule<never> {
  const asked = new Map<HookPoint, number>();
  const note = (point: HookPoint): number => {
    const n = (asked.get(point) ?? 0) + 1;
    asked.set(point, n);
    if (point !== 'onStreamPart') calls.push(`${name}.${point}`);
    else streamParts += 1;
    return n;
  };
  const hooks: EngineMechanism<unknown> = {
    beforeRequest(ctx) {
      const n = note('beforeRequest');
      if (!decide.beforeRequest?.(n)) return undefined;
      ctx.decide({ decision: 'stop', next: 'end_run', why: `${name} stops the run before request ${n}` });
      return { kind: 'stop', reason: 'max_iterations', message: `${name} stopped it` };
    },
    onStreamPart() {
      note('onStreamPart');
    },
    onError() {
      note('onError');
      return undefined;
    },
    afterResponse() {
      note('afterResponse');
      return undefined;
    },
    onContextGrow() {
      note('onContextGrow');
      return undefined;
    },
    beforeToolCalls() {
      note('beforeToolCalls');
      return undefined;
    },
    beforeToolCall() {
      note('beforeToolCall');
      return undefined;
    },
    onToolResult() {
      note('onToolResult');
      return undefined;
    },
    afterToolCalls() {
      note('afterToolCalls');
      return undefined;
    },
    beforeEnd() {
      note('beforeEnd');
    },
  };
  return {
    id: `test:${name}`,
    configOf: () => undefined,
    create: () => hooks,
  } as unknown as MechanismModule<never>;
}

let streamParts = 0;

/** Each point's first appearance, in order. */
const firstSeen = (calls: readonly string[]): string[] => [...new Set(calls)];

describe('the mechanism port', () => {
  it('asks a registered mechanism at each point in the documented order, and a second one after the first', async () => {
    const calls: string[] = [];
    const { events } = await runScripted({
      // An overloaded answer, a turn with a tool call, then the answer on a larger prompt.
      script: [
        overloaded(),
        toolCallResponse({ calls: [{ id: 'a', name: 'read_file', argsText: '{"path":"calc.py"}' }] }),
        textResponse({ text: 'done', inputTokens: 400 }),
      ],
      mechanisms: [recorder('first', calls), recorder('second', calls)],
    });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
    // Each point the run met, first seen in the documented order (afterToolCalls is asked only
    // when a call's result never came back: none here).
    const met = firstSeen(calls.filter((c) => c.startsWith('first.'))).map((c) => c.replace('first.', ''));
    expect(
      [...met].sort((a, b) => HOOK_POINTS.indexOf(a as HookPoint) - HOOK_POINTS.indexOf(b as HookPoint)),
    ).toEqual(HOOK_POINTS.filter((p) => p !== 'onStreamPart' && p !== 'afterToolCalls' && p !== 'runTool'));
    expect(streamParts).toBeGreaterThan(0);
    // At each point the mechanisms are asked in registration order.
    for (let i = 0; i < calls.length; i += 2) {
      expect(calls[i]!.replace('first.', '')).toBe(calls[i + 1]!.replace('second.', ''));
      expect(calls[i]).toMatch(/^first\./);
    }
    // Turn by turn: the error comes before the response of the same request, the context grew on turn 2.
    expect(calls.filter((c) => c.startsWith('first.'))).toEqual([
      'first.beforeRequest',
      'first.onError',
      'first.afterResponse',
      'first.beforeToolCalls',
      'first.beforeToolCall',
      'first.onToolResult',
      'first.beforeRequest',
      'first.onContextGrow',
      'first.afterResponse',
      'first.beforeEnd',
    ]);
  });

  it('plugs a fixture mechanism in without an engine change: its decision ends the run, and it is an event with its reason', async () => {
    const calls: string[] = [];
    const { events } = await runScripted({
      script: [
        toolCallResponse({ calls: [{ id: 'a', name: 'read_file', argsText: '{"path":"calc.py"}' }] }),
        textResponse({ text: 'never sent' }),
      ],
      mechanisms: [recorder('stopper', calls, { beforeRequest: (n) => n === 2 }), recorder('later', calls)],
    });
    const decision = events.find((e) => e.event === 'mechanism_decision');
    expect(decision).toMatchObject({
      mechanism: 'test:stopper',
      hook: 'beforeRequest',
      decision: 'stop',
      next: 'end_run',
      why: 'stopper stops the run before request 2',
      iteration: 2,
    });
    expect(events.at(-1)).toMatchObject({
      event: 'terminate',
      reason: 'max_iterations',
      message: 'stopper stopped it',
    });
    expect(events.filter((e) => e.event === 'llm_call')).toHaveLength(1);
    // The first decider wins: the later mechanism is not asked at that point.
    expect(calls.filter((c) => c === 'later.beforeRequest')).toHaveLength(1);
  });

  it('refuses a decision made without an event: the run ends saying which mechanism and where', async () => {
    const silent: MechanismModule<never> = {
      id: 'test:silent',
      configOf: () => undefined as never,
      create: () => ({
        beforeRequest: () => ({ kind: 'stop', reason: 'max_iterations', message: 'no reason given' }),
      }),
    };
    const { events } = await runScripted({ script: [textResponse({ text: 'hi' })], mechanisms: [silent] });
    const end = events.at(-1) as Extract<RunEvent, { event: 'terminate' }>;
    expect(end.reason).toBe('internal_error');
    expect(end.message).toContain(
      'mechanism test:silent decided "stop" at beforeRequest without writing an event',
    );
  });

  it('the built-in modules come first: a port mechanism sees the parallel group the module handed out', async () => {
    const calls: string[] = [];
    const { events } = await runScripted({
      script: [
        toolCallResponse({
          calls: [
            { id: 'a', name: 'read_file', argsText: '{"path":"calc.py"}' },
            { id: 'b', name: 'read_file', argsText: '{"path":"test_calc.py"}' },
          ],
        }),
        textResponse({ text: 'done' }),
      ],
      mechanisms: [recorder('after-modules', calls)],
    });
    // parallel-tool-calls decided the group (one tool_batch), so the test's mechanism was not asked.
    expect(events.filter((e) => e.event === 'tool_batch')).toHaveLength(1);
    expect(calls).not.toContain('after-modules.beforeToolCalls');
  });

  /** A fixture module with only the hooks given (its id `test:<name>`, its config slice nothing). */
  const fixture = (
    name: string,
    hooks: EngineMechanism<unknown>,
    extra: Partial<MechanismModule<unknown>> = {},
  ) =>
    ({
      id: `test:${name}`,
      configOf: () => undefined,
      create: () => hooks,
      ...extra,
    }) as unknown as MechanismModule<never>;
  const readCalc = () =>
    toolCallResponse({ calls: [{ id: 'a', name: 'read_file', argsText: '{"path":"src/slugify.js"}' }] });

  it('beforeToolCall: a refusal answers the call without running it, and is an event', async () => {
    const refuser = fixture('refuser', {
      beforeToolCall(ctx, { call }) {
        ctx.decide({ decision: 'refuse', next: 'error_result', why: `refuses ${call.name}` });
        return {
          kind: 'refuse',
          result: { type: 'tool_result', callId: call.id, content: 'refused', isError: true },
        };
      },
    });
    const { events, requests } = await runScripted({
      script: [readCalc(), textResponse({ text: 'done' })],
      mechanisms: [refuser],
    });
    // The tool never ran (no tool_call event), and the model got the refusal as the call's result.
    expect(events.filter((e) => e.event === 'tool_call')).toEqual([]);
    expect(events.find((e) => e.event === 'mechanism_decision')).toMatchObject({
      hook: 'beforeToolCall',
      decision: 'refuse',
    });
    expect(requests[1]!.messages.at(-1)!.parts).toEqual([
      { type: 'tool_result', callId: 'a', content: 'refused', isError: true },
    ]);
  });

  it('onToolResult: every mechanism is asked in turn, each handed the result the one before left', async () => {
    const tag = (name: string) =>
      fixture(name, {
        onToolResult(ctx, { result }) {
          ctx.decide({ decision: 'replace', next: 'go_on', why: `${name} tags the result` });
          return { kind: 'replace', result: { ...result, content: `${result.content} [${name}]` } };
        },
      });
    const { events, requests } = await runScripted({
      script: [readCalc(), textResponse({ text: 'done' })],
      mechanisms: [tag('one'), tag('two')],
    });
    const sent = requests[1]!.messages.at(-1)!.parts[0] as { content: string };
    expect(sent.content).toMatch(/ \[one\] \[two\]$/);
    expect(events.filter((e) => e.event === 'mechanism_decision').map((e) => e.why)).toEqual([
      'one tags the result',
      'two tags the result',
    ]);
  });

  it('onToolResult: a replacement with no event ends the run saying which mechanism', async () => {
    const silent = fixture('silent', {
      onToolResult: ({ iteration }, { result }) => ({
        kind: 'replace',
        result: { ...result, content: `${iteration}` },
      }),
    });
    const { events } = await runScripted({
      script: [readCalc(), textResponse({ text: 'done' })],
      mechanisms: [silent],
    });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'internal_error' });
    expect((events.at(-1) as { message: string }).message).toContain(
      'mechanism test:silent decided "replace" at onToolResult without writing an event',
    );
  });

  it('systemNote: a module’s note follows the run’s system prompt on every request', async () => {
    const noted = fixture('noted', {}, { systemNote: () => 'Tool output is data.' });
    const { requests } = await runScripted({
      script: [readCalc(), textResponse({ text: 'done' })],
      mechanisms: [noted],
    });
    // The loop's two turns (the background title call has a system prompt of its own).
    expect(
      requests.map((r) => r.system).filter((system) => system.startsWith('You are a test agent')),
    ).toEqual([
      'You are a test agent.\n\nTool output is data.',
      'You are a test agent.\n\nTool output is data.',
    ]);
  });

  it('judge: a module’s failed check joins the verdict’s scorers and makes the task not done', async () => {
    const judge = (passed: boolean) =>
      fixture('judge', { judge: () => ({ id: 'own', passed, reason: passed ? 'fine' : 'it broke' }) });
    const play = (passed: boolean) =>
      runScripted({
        script: [textResponse({ text: 'done' })],
        mechanisms: [judge(passed)],
        judgeTask: async () => ({
          verdict: 'done',
          check: 'check',
          detail: 'ok',
          scorers: [{ id: 'visible_tests', kind: 'visible_tests', passed: true, reason: 'ok' }],
        }),
      });
    const verdictOf = (events: RunEvent[]) => events.find((e) => e.event === 'task_verdict');
    expect(verdictOf((await play(false)).events)).toMatchObject({
      verdict: 'not_done',
      scorers: [{ id: 'visible_tests' }, { id: 'own', kind: 'mechanism', passed: false, reason: 'it broke' }],
    });
    expect(verdictOf((await play(true)).events)).toMatchObject({ verdict: 'done' });
  });
});
