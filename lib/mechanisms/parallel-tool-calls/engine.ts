import type { RecoveryConfig, ToolCallPart } from '@/lib/protocol';
import { defineMechanism } from '@/lib/engine/mechanism-port';
import { ID } from './defaults';

interface Group {
  calls: ToolCallPart[];
  parallel: boolean;
  /** Why the group is what it is, in words. */
  why: string;
}

/**
 * A turn's calls in groups, in call order: neighbouring calls whose tools may run beside others
 * run together, at most `limit` at once; any other call runs alone.
 */
export function groupCalls(
  calls: readonly ToolCallPart[],
  parallelSafe: (call: ToolCallPart) => boolean,
  limit: number,
): Group[] {
  const groups: Group[] = [];
  let open: ToolCallPart[] = [];
  let afterFull = false;
  const close = (): void => {
    if (open.length > 1) {
      const names = open.map((c) => c.name).join(', ');
      groups.push({
        calls: open,
        parallel: true,
        why: `${open.length} calls run at once (${names}): their tools only read, so none waits for another (at most ${limit} at once)`,
      });
    } else if (open.length === 1) {
      const name = open[0]!.name;
      groups.push({
        calls: open,
        parallel: false,
        why: afterFull
          ? `${name} runs after the ${limit} calls before it: at most ${limit} run at once`
          : `${name} runs alone: the calls beside it may change the workspace`,
      });
    }
    afterFull = open.length === limit && limit > 1;
    open = [];
  };
  for (const call of calls) {
    if (limit > 1 && parallelSafe(call)) {
      open.push(call);
      if (open.length === limit) close();
      continue;
    }
    close();
    afterFull = false;
    groups.push({
      calls: [call],
      parallel: false,
      why:
        limit === 1
          ? `${call.name} runs alone: the calls of a turn run one after another (at most 1 at once)`
          : `${call.name} runs alone: it may change the workspace, so it never runs beside another call`,
    });
  }
  close();
  return groups;
}

/**
 * Parallel tool calls on the mechanism port (before the tool calls): the turn's calls in groups
 * (read-only ones at once, up to `tools.maxParallel`; every other call alone), handed out one
 * group at a time. A turn of several calls writes a tool_batch event as each group starts.
 */
export const ENGINE = defineMechanism<Pick<RecoveryConfig['tools'], 'maxParallel'>>({
  id: ID,
  configOf: (recovery) => ({ maxParallel: recovery.tools.maxParallel }),
  create: () => {
    let turn: { calls: readonly ToolCallPart[]; groups: Group[] } | undefined;
    return {
      beforeToolCalls(ctx, { calls, remaining, parallelSafe }) {
        // One call: nothing to group and nothing to say (the engine runs it alone).
        if (calls.length === 1) return undefined;
        if (turn?.calls !== calls)
          turn = { calls, groups: groupCalls(calls, parallelSafe, ctx.config.maxParallel) };
        const group = turn.groups.find((g) => g.calls[0] === remaining[0]);
        if (!group) return undefined;
        ctx.emit({
          event: 'tool_batch',
          iteration: ctx.iteration,
          call_ids: group.calls.map((c) => c.id),
          tools: group.calls.map((c) => c.name),
          parallel: group.parallel,
          limit: ctx.config.maxParallel,
          why: group.why,
        });
        return { kind: 'run', calls: group.calls, parallel: group.parallel };
      },
    };
  },
});
