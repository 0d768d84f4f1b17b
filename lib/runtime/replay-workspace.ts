import type { Clock, Random } from '@/lib/clock';
import type { RunEvent } from '@/lib/protocol';
import type { Toolbox, Workspace } from '@/lib/tools';

/**
 * A forked run's files: the scenario's workspace with the parent's successful edits of the
 * copied turns applied again, in log order, by the same tools. Each replayed call's result is
 * compared with the one the parent logged; a call whose result differs is named in
 * `diverged` (the fork's files may then differ from the parent's at that turn).
 */
export async function replayWorkspace(options: {
  events: readonly RunEvent[];
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
}): Promise<{ replayed: number; diverged: string[] }> {
  const { toolbox, workspace, clock, random } = options;
  let replayed = 0;
  const diverged: string[] = [];
  const signal = new AbortController().signal;
  for (const event of options.events) {
    if (
      event.event !== 'tool_call' ||
      event.is_error ||
      (event.status !== undefined && event.status !== 'ok')
    )
      continue;
    const tool = toolbox.get(event.tool);
    if (!tool?.mutates) continue;
    const label = `${event.tool} ${event.call_id ?? ''} (turn ${event.iteration})`.replace('  ', ' ');
    const args = tool.input.safeParse(event.args);
    if (!args.success) {
      diverged.push(`${label}: its logged arguments do not parse`);
      continue;
    }
    const result = await tool.run(args.data, { workspace, clock, random, signal });
    replayed += 1;
    // A result cut for length is compared by its start only.
    const logged = event.result ?? '';
    const same = event.truncated_chars
      ? result.content.startsWith(logged.slice(0, 200))
      : result.content === logged;
    if (result.isError || !same) diverged.push(label);
  }
  return { replayed, diverged };
}
