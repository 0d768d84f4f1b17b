import type { Clock, Random } from '@/lib/clock';
import type { EventBody, RunEvent } from '@/lib/protocol';
import type { Toolbox, Workspace } from '@/lib/tools';
import type { ForkStart } from './plan-fork';
import { replayWorkspace } from './replay-workspace';

/**
 * A fork's start: the link to its parent (an event, with where the fork takes up the parent's
 * fault plan), the parent's events of the copied turns (their ts kept), the workspace as
 * those turns left it (their edits replayed), then a fork_edit event for each edit a person made
 * to the state at the turn.
 */
export async function startFromParent(options: {
  fork: ForkStart;
  emitAt: (body: EventBody, ts: number) => RunEvent;
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
}): Promise<void> {
  const { fork, emitAt } = options;
  const { trajectory } = fork;
  const files = await replayWorkspace({
    events: trajectory.events,
    toolbox: options.toolbox,
    workspace: options.workspace,
    clock: options.clock,
    random: options.random,
  });
  emitAt(
    {
      event: 'forked_from',
      parent_run_id: fork.parentRunId,
      turn: fork.atTurn,
      from_vendor: trajectory.vendor,
      from_model: trajectory.model,
      copied_events: trajectory.events.length,
      messages: trajectory.messages.length,
      inherited: {
        usd: Math.round(trajectory.totals.usd * 1e6) / 1e6,
        input_tokens: trajectory.totals.inputTokens,
        output_tokens: trajectory.totals.outputTokens,
      },
      workspace: files,
      faults: {
        requests_before: fork.faults.position.requestsBefore,
        spent: { ...fork.faults.position.spent },
        why: fork.faults.why,
      },
    },
    0,
  );
  for (const event of trajectory.events) emitAt({ ...event } as EventBody, event.ts);
  // The person's edits, after the copied turns and before the first request: where this log first differs.
  const at = trajectory.events.at(-1)?.ts ?? 0;
  for (const edit of fork.edits) emitAt(edit, at);
}
