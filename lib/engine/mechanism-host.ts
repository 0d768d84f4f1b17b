/** One run's mechanisms on the port (MechanismHost): asked at each point in order, each decision held to its event. */
import type { Clock } from '@/lib/clock';
import type {
  EventBody,
  RecoveryConfig,
  RunConfig,
  ScorerResult,
  ToolCallPart,
  ToolResultPart,
} from '@/lib/protocol';
import type { StreamPart, ToolSpec } from '@/lib/providers/types';
import type { Emit } from './event-log';
import type { EngineMechanism, HookContext, HookPoint, MechanismModule, NestedLoop } from './mechanism-port';
import type { ToolRunner } from './tool-step';

type Hooked = { id: string; config: unknown; hooks: EngineMechanism<unknown> };
type DecidingPoint = Exclude<HookPoint, 'onStreamPart' | 'beforeEnd' | 'onToolResult' | 'runTool'>;
type InfoOf<P extends HookPoint> = Parameters<NonNullable<EngineMechanism<unknown>[P]>>[1];
type DecisionOf<P extends HookPoint> = ReturnType<NonNullable<EngineMechanism<unknown>[P]>>;

/**
 * One run's registered mechanisms, asked at each point in the documented order. The engine
 * holds one host per run and calls its methods; a point no mechanism implements costs nothing.
 */
export class MechanismHost {
  private readonly mechanisms: Hooked[];
  private readonly watchers: Hooked[];
  private readonly modules: readonly MechanismModule<unknown>[];

  constructor(
    modules: readonly MechanismModule<never>[],
    private readonly deps: {
      clock: Pick<Clock, 'now'>;
      emit: Emit;
      recovery: RecoveryConfig;
      run?: RunConfig;
    },
  ) {
    this.modules = modules as unknown as readonly MechanismModule<unknown>[];
    this.mechanisms = modules.map((m) => {
      const module = m as unknown as MechanismModule<unknown>;
      return { id: module.id, config: module.configOf(deps.recovery, deps.run), hooks: module.create() };
    });
    this.watchers = this.mechanisms.filter((m) => m.hooks.onStreamPart);
  }

  /** The ids registered, in the order they are asked. */
  get ids(): string[] {
    return this.mechanisms.map((m) => m.id);
  }

  /** Whether any mechanism watches stream parts (the hot path skips the call when none does). */
  get watchesStream(): boolean {
    return this.watchers.length > 0;
  }

  beforeRequest(iteration: number, info: InfoOf<'beforeRequest'>): DecisionOf<'beforeRequest'> {
    return this.ask('beforeRequest', iteration, info);
  }

  onStreamPart(iteration: number, part: StreamPart): void {
    for (const m of this.watchers)
      m.hooks.onStreamPart!(this.context(m, 'onStreamPart', iteration).ctx, part);
  }

  onError(iteration: number, info: InfoOf<'onError'>): DecisionOf<'onError'> {
    return this.ask('onError', iteration, info);
  }

  afterResponse(iteration: number, info: InfoOf<'afterResponse'>): DecisionOf<'afterResponse'> {
    return this.ask('afterResponse', iteration, info);
  }

  onContextGrow(iteration: number, info: InfoOf<'onContextGrow'>): DecisionOf<'onContextGrow'> {
    return this.ask('onContextGrow', iteration, info);
  }

  beforeToolCalls(iteration: number, info: InfoOf<'beforeToolCalls'>): DecisionOf<'beforeToolCalls'> {
    return this.ask('beforeToolCalls', iteration, info);
  }

  beforeToolCall(iteration: number, info: InfoOf<'beforeToolCall'>): DecisionOf<'beforeToolCall'> {
    return this.ask('beforeToolCall', iteration, info);
  }

  /** Every mechanism in turn, each handed the result as the one before left it: the result the model gets. */
  onToolResult(iteration: number, call: ToolCallPart, result: ToolResultPart): ToolResultPart {
    let current = result;
    for (const m of this.mechanisms) {
      if (!m.hooks.onToolResult) continue;
      const { ctx, written } = this.context(m, 'onToolResult', iteration);
      const decision = m.hooks.onToolResult(ctx, { call, result: current });
      if (decision === undefined) continue;
      this.mustHaveWritten(m, decision.kind, 'onToolResult', written());
      if (decision.result.callId !== call.id)
        throw new Error(`mechanism ${m.id} replaced the result of call ${call.id} with another call's`);
      current = decision.result;
    }
    return current;
  }

  afterToolCalls(iteration: number, info: InfoOf<'afterToolCalls'>): DecisionOf<'afterToolCalls'> {
    return this.ask('afterToolCalls', iteration, info);
  }

  /** The tools the mechanisms run themselves, each with the mechanism that offers it (the first to name one keeps it). */
  ownTools(): (ToolSpec & { parallelSafe: boolean; owner: string })[] {
    const seen = new Set<string>();
    return this.mechanisms.flatMap((m) =>
      (m.hooks.ownTools?.(m.config) ?? []).flatMap((spec) => {
        if (seen.has(spec.name)) return [];
        seen.add(spec.name);
        return [{ ...spec, owner: m.id }];
      }),
    );
  }

  /**
   * The run's tool runner with the mechanisms' own tools in it: a call of one goes to its
   * mechanism's runTool, between a tool_start and a tool_call event; every other call to `runner`.
   * Returns `runner` itself when no mechanism offers a tool.
   */
  withOwnTools(runner: ToolRunner, deps: { model: () => string; nested: NestedLoop }): ToolRunner {
    const owned = new Map(this.ownTools().map((t) => [t.name, t]));
    if (owned.size === 0) return runner;
    const { clock } = this.deps;
    return {
      parallelSafe: (call) => owned.get(call.name)?.parallelSafe ?? runner.parallelSafe?.(call) ?? false,
      execute: async (call, ctx) => {
        const tool = owned.get(call.name);
        if (!tool) return runner.execute(call, ctx);
        const m = this.mechanisms.find((x) => x.id === tool.owner)!;
        const started = clock.now();
        const args = call.args ?? call.argsText;
        this.deps.emit({
          event: 'tool_start',
          iteration: ctx.iteration,
          call_id: call.id,
          tool: call.name,
          args,
        });
        const { ctx: hookCtx } = this.context(m, 'runTool', ctx.iteration);
        const result = await m.hooks.runTool!.call(m.hooks, hookCtx, {
          call,
          signal: ctx.signal,
          model: deps.model(),
          nested: deps.nested,
        });
        this.deps.emit({
          event: 'tool_call',
          iteration: ctx.iteration,
          call_id: call.id,
          tool: call.name,
          args,
          result: result.content,
          result_chars: result.content.length,
          is_error: result.isError,
          latency_ms: clock.now() - started,
          status: result.isError ? 'error' : 'ok',
        });
        return { result };
      },
    };
  }

  /** The run's system prompt with each module's note after it, in registration order. */
  system(base: string): string {
    const notes = this.modules.flatMap((module, k) => {
      const note = module.systemNote?.(this.mechanisms[k]!.config);
      return note ? [note] : [];
    });
    return notes.length > 0 ? [base, ...notes].join('\n\n') : base;
  }

  /** Each mechanism's own check on the run, in registration order (its scorer of the task verdict). */
  judge(iteration: number): ScorerResult[] {
    return this.mechanisms.flatMap((m) => {
      const scorer = m.hooks.judge?.(this.context(m, 'beforeEnd', iteration).ctx);
      return scorer ? [{ ...scorer, kind: 'mechanism' as const }] : [];
    });
  }

  beforeEnd(iteration: number, info: InfoOf<'beforeEnd'>): void {
    for (const m of this.mechanisms) m.hooks.beforeEnd?.(this.context(m, 'beforeEnd', iteration).ctx, info);
  }

  private ask<P extends DecidingPoint>(point: P, iteration: number, info: InfoOf<P>): DecisionOf<P> {
    for (const m of this.mechanisms) {
      const hook = m.hooks[point] as
        ((ctx: HookContext<unknown>, info: InfoOf<P>) => DecisionOf<P>) | undefined;
      if (!hook) continue;
      const { ctx, written } = this.context(m, point, iteration);
      const decision = hook.call(m.hooks, ctx, info);
      if (decision === undefined) continue;
      this.mustHaveWritten(m, decision.kind, point, written());
      return decision;
    }
    return undefined as DecisionOf<P>;
  }

  private mustHaveWritten(m: Hooked, kind: string, point: HookPoint, written: number): void {
    if (written === 0)
      throw new Error(
        `mechanism ${m.id} decided "${kind}" at ${point} without writing an event: every decision is an event with its reason (write one with ctx.decide)`,
      );
  }

  private context(
    m: Hooked,
    point: HookPoint,
    iteration: number,
  ): { ctx: HookContext<unknown>; written: () => number } {
    let written = 0;
    const emit: Emit = (body: EventBody) => {
      written += 1;
      return this.deps.emit(body);
    };
    const ctx: HookContext<unknown> = {
      clock: this.deps.clock,
      iteration,
      config: m.config,
      emit,
      decide: ({ decision, next, why }) =>
        emit({ event: 'mechanism_decision', iteration, mechanism: m.id, hook: point, decision, next, why }),
    };
    return { ctx, written: () => written };
  }
}
