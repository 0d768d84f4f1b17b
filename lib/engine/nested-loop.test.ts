import { describe, expect, it } from 'vitest';
import type { EventBody, EventOf, RunEvent } from '@/lib/protocol';
import { apiError, textResponse, toolCallResponse } from '@/lib/providers/scripted-provider';
import { runScripted } from '@/lib/testing/run-scripted';
import type { MechanismModule, NestedLoopOutcome, NestedLoopRequest } from './mechanism-port';

const overloaded = () => ({
  parts: [],
  end: {
    kind: 'error' as const,
    error: apiError({ status: 529, type: 'overloaded_error', message: 'busy' }),
  },
});

/**
 * A fixture mechanism (the test's alone) that offers one tool of its own, `ask_helper`, and runs
 * each call as a nested loop; it keeps what the nested loop wrote and how it ended.
 */
function helper(
  request: Partial<NestedLoopRequest>,
  seen: { events: EventBody[]; outcome?: NestedLoopOutcome },
) {
  return {
    id: 'test:helper',
    configOf: () => undefined,
    create: () => ({
      ownTools: () => [
        {
          name: 'ask_helper',
          description: 'Ask a helper.',
          inputSchema: { type: 'object' },
          parallelSafe: true,
        },
      ],
      async runTool(
        ctx: { emit: (b: EventBody) => RunEvent; iteration: number },
        info: { call: { id: string }; nested: (r: NestedLoopRequest) => Promise<NestedLoopOutcome> },
      ) {
        ctx.emit({ event: 'log', iteration: ctx.iteration, level: 'info', message: 'helper starts' });
        const outcome = await info.nested({
          task: 'help',
          system: 'You are a helper.',
          maxIterations: 2,
          attempts: 5,
          seedKey: `helper:${info.call.id}`,
          emit: (body) => {
            seen.events.push(body);
            return { ...body, run_id: 'helper', seq: seen.events.length, ts: 0 } as RunEvent;
          },
          ...request,
        });
        seen.outcome = outcome;
        return {
          type: 'tool_result' as const,
          callId: info.call.id,
          content: outcome.answer ?? '',
          isError: false,
        };
      },
    }),
  } as unknown as MechanismModule<never>;
}

const of = <T extends RunEvent['event']>(events: readonly { event: string }[], type: T) =>
  events.filter((e) => e.event === type) as unknown as EventOf<T>[];

describe('a loop run under a tool call (the mechanism port’s runTool)', () => {
  it('offers the tool, runs it between tool_start and tool_call, and the nested loop writes only where it is told', async () => {
    const seen: { events: EventBody[]; outcome?: NestedLoopOutcome } = { events: [] };
    const { events, requests } = await runScripted({
      script: [
        toolCallResponse({ calls: [{ id: 'h1', name: 'ask_helper', argsText: '{}' }] }),
        textResponse({ text: 'the helper found it' }),
        textResponse({ text: 'done' }),
      ],
      mechanisms: [helper({}, seen)],
    });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
    // The parent is offered the tool; the nested loop, the run's own tools only, with its own task and system.
    expect(requests[0]!.tools.map((t) => t.name)).toContain('ask_helper');
    expect(requests[1]!.system).toBe('You are a helper.');
    expect(requests[1]!.tools.map((t) => t.name)).not.toContain('ask_helper');
    expect(requests[1]!.messages[0]).toEqual({ role: 'user', parts: [{ type: 'text', text: 'help' }] });
    // The nested loop's events went to its emit, none to the run's log: one terminate there, the parent's.
    expect(of(seen.events, 'terminate')).toMatchObject([{ reason: 'end_turn' }]);
    expect(of(events, 'terminate')).toHaveLength(1);
    expect(of(events, 'llm_call')).toHaveLength(2);
    // No title call for the nested loop: its requests are its one turn.
    expect(seen.outcome).toMatchObject({ reason: 'end_turn', answer: 'the helper found it', requests: 1 });
    const [start] = of(events, 'tool_start');
    const [call] = of(events, 'tool_call');
    expect(start).toMatchObject({ call_id: 'h1', tool: 'ask_helper' });
    expect(call).toMatchObject({
      call_id: 'h1',
      tool: 'ask_helper',
      result: 'the helper found it',
      is_error: false,
    });
    const log = events.find((e) => e.event === 'log' && e.message === 'helper starts')!;
    expect(start!.seq).toBeLessThan(log.seq);
    expect(log.seq).toBeLessThan(call!.seq);
  });

  it("counts a nested loop's requests in an account of its own, or in the run's when shared", async () => {
    const script = () => [
      toolCallResponse({ calls: [{ id: 'h1', name: 'ask_helper', argsText: '{}' }] }),
      overloaded(),
      textResponse({ text: 'the helper found it' }),
      textResponse({ text: 'done' }),
    ];
    const own: { events: EventBody[]; outcome?: NestedLoopOutcome } = { events: [] };
    const ownRun = await runScripted({ script: script(), mechanisms: [helper({ attempts: 5 }, own)] });
    expect(of(own.events, 'model_request').map((e) => e.request_no)).toEqual([1, 2]);
    // The parent's: its two turns and its title request.
    expect(of(ownRun.events, 'model_request').map((e) => e.request_no)).toEqual([1, 2, 3]);

    const shared: { events: EventBody[]; outcome?: NestedLoopOutcome } = { events: [] };
    const sharedRun = await runScripted({
      script: script(),
      mechanisms: [helper({ attempts: 'shared' }, shared)],
    });
    // The nested loop's two requests are the run's 2nd and 3rd; the parent's next are its 4th and 5th.
    expect(of(shared.events, 'model_request').map((e) => e.request_no)).toEqual([2, 3]);
    expect(of(sharedRun.events, 'model_request').map((e) => e.request_no)).toEqual([1, 4, 5]);
    expect(shared.outcome).toMatchObject({ reason: 'end_turn', requests: 2 });
  });

  it('stops a nested loop at its own attempt budget, and the run goes on', async () => {
    const seen: { events: EventBody[]; outcome?: NestedLoopOutcome } = { events: [] };
    const { events } = await runScripted({
      script: [
        toolCallResponse({ calls: [{ id: 'h1', name: 'ask_helper', argsText: '{}' }] }),
        overloaded(),
        textResponse({ text: 'done' }),
      ],
      mechanisms: [helper({ attempts: 1 }, seen)],
    });
    expect(seen.outcome).toMatchObject({ reason: 'attempt_budget', requests: 1 });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
  });
});
