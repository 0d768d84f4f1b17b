import { z } from 'zod';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { EventBody, RecoveryConfig, ToolCallPart, ToolFault, ToolResultPart } from '@/lib/protocol';
import { createToolExecutor, type ExecuteContext } from './executor';
import { createToolbox, type AnyTool } from './registry';
import { fixFailingTest } from './scenarios/fix-failing-test';
import { createWorkspace } from './workspace';

/** Every rule on, at the seeds' defaults. */
export const ALL_ON: RecoveryConfig['tools'] = {
  safeExecutor: true,
  failureBudget: 3,
  shortCircuitRepeats: true,
  timeoutMs: 30_000,
  truncateChars: 4_000,
  loopGuard: true,
  blockRepeatAt: 3,
  warnAfterFailures: 3,
  haltAfterFailures: 8,
  // The repair ladder is off here, so the re-ask texts are tested as sent; executor-repair.test.ts switches it on.
  repairJson: false,
  coerceArgs: false,
  checkRateMax: 10,
  checkRateWindowMs: 60_000,
  repairInterrupted: true,
  maxParallel: 4,
};

/** A tool that counts its runs and fails on request, to watch what the executor lets through. */
export function createProbeTool(): AnyTool & { runs: number } {
  const probe = {
    name: 'probe',
    description: 'test probe',
    input: z.strictObject({
      n: z.number().optional(),
      a: z.number().optional(),
      b: z.number().optional(),
      fail: z.boolean().optional(),
    }),
    runs: 0,
    run(args: { fail?: boolean }) {
      probe.runs++;
      return { content: args.fail ? 'probe failed' : 'probe ok', isError: Boolean(args.fail) };
    },
  };
  return probe;
}

export function setup(
  options: {
    config?: Partial<RecoveryConfig['tools']>;
    faults?: ToolFault[];
    files?: Record<string, string>;
    seed?: number;
    emit?: (body: EventBody) => void;
  } = {},
) {
  const probe = createProbeTool();
  const base = createToolbox({ scenario: fixFailingTest });
  const toolbox = createToolbox({ scenario: fixFailingTest, tools: [...base.tools, probe] });
  const workspace = createWorkspace({ files: options.files ?? fixFailingTest.files });
  const clock = new VirtualClock();
  const events: EventBody[] = [];
  let faults = options.faults ?? [];
  const executor = createToolExecutor({
    toolbox,
    workspace,
    clock,
    random: createRandom(options.seed ?? 7),
    config: { ...ALL_ON, ...options.config },
    faults: () => faults,
    emit: options.emit ?? ((body) => events.push(body)),
  });
  let n = 0;
  /** The call's answer; a call whose result never came back (interrupted) fails the test here. */
  const answered = async (
    part: ToolCallPart,
    ctx: Partial<ExecuteContext>,
  ): Promise<{ result: ToolResultPart; halt?: string }> => {
    const outcome = await executor.execute(part, {
      iteration: 1,
      signal: new AbortController().signal,
      truncatedRound: false,
      ...ctx,
    });
    if (!outcome.result) throw new Error(`${part.name} was interrupted: no result`);
    return { result: outcome.result, ...(outcome.halt ? { halt: outcome.halt } : {}) };
  };
  const callRaw = (name: string, argsText: string, ctx: Partial<ExecuteContext> = {}) => {
    const part: ToolCallPart = { type: 'tool_call', id: `c${++n}`, name, argsText };
    return answered(part, ctx);
  };
  const call = (name: string, args: Record<string, unknown> = {}, ctx: Partial<ExecuteContext> = {}) => {
    const part: ToolCallPart = {
      type: 'tool_call',
      id: `c${++n}`,
      name,
      argsText: JSON.stringify(args),
      args,
    };
    return answered(part, ctx);
  };
  const of = <T extends EventBody['event']>(type: T) =>
    events.filter((e): e is Extract<EventBody, { event: T }> => e.event === type);
  return {
    executor,
    events,
    of,
    call,
    callRaw,
    clock,
    workspace,
    probe,
    setFaults: (next: ToolFault[]) => {
      faults = next;
    },
  };
}
