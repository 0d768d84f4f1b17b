import type { SubagentFault } from '@/lib/protocol';
import type { Policy, PolicyRequest, PolicyTurn } from '../types';
import { answerTurn, callHistory, findTool } from './history';

/** The tasks the simulated model hands out, at once, when the run offers a delegate tool. */
export const DELEGATED_TASKS = [
  'Survey the workspace: list the files and say which one holds the code the task is about.',
  'Find the tests: list the files, read the test file and say what it expects.',
  'Read the README (or the first file there is) and say what the project is for.',
] as const;

/** A sub-agent's system prompt names it: "You are sub-agent c2…". */
const CHILD = /^You are sub-agent c(\d+)\b/;

/**
 * The simulated model with a delegate tool: as a parent, its first turn delegates three survey
 * tasks at once, and once their results are back it goes on as `policy` does (the scenario's
 * own work); as a sub-agent (its system prompt says which), it lists the workspace, reads the
 * file its task is about and answers with what it read. `faults` make a sub-agent misbehave:
 * `loops` reads the same file again and again, `overruns` reads one more file every turn and
 * never answers. A sub-agent's turns draw nothing: they are the same for any seed.
 */
export function withDelegation(policy: Policy, faults: readonly SubagentFault[] = []): Policy {
  return (request, random) => {
    const child = CHILD.exec(request.system);
    if (child) {
      const n = Number(child[1]);
      const fault = faults.find((f) => f.enabled && (f.child === undefined || f.child === n));
      return childTurn(request, fault?.kind);
    }
    if (!findTool(request, 'delegate')) return policy(request, random);
    const delegated = callHistory(request.messages).some((c) => c.name === 'delegate');
    if (delegated) return policy(request, random);
    return {
      text: 'I will hand the survey to three sub-agents at once, then do the work myself.',
      toolCalls: DELEGATED_TASKS.map((task) => ({ name: 'delegate', argsText: JSON.stringify({ task }) })),
    };
  };
}

/** The task text of a request: its first user message. */
function taskOf(request: PolicyRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  return (first?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function childTurn(request: PolicyRequest, fault: SubagentFault['kind'] | undefined): PolicyTurn {
  const history = callHistory(request.messages);
  const listing = history.find((c) => c.name === 'list_files' && c.result && !c.result.isError);
  if (!listing)
    return { text: 'Listing the workspace.', toolCalls: [{ name: 'list_files', argsText: '{}' }] };
  const paths = (listing.result?.content.match(/^\S+\.\w+/gm) ?? []).filter(
    (p) => p.includes('/') || p.includes('.'),
  );
  const task = taskOf(request).toLowerCase();
  const target =
    (task.includes('test') ? paths.find((p) => /test/i.test(p)) : undefined) ??
    (task.includes('readme') ? paths.find((p) => /readme/i.test(p)) : undefined) ??
    paths.find((p) => !/test|readme/i.test(p)) ??
    paths[0];
  const reads = history.filter((c) => c.name === 'read_file');
  if (target && fault === 'loops') return { text: `Reading ${target} again.`, toolCalls: [read(target)] };
  if (fault === 'overruns') {
    const next = paths[reads.length % Math.max(1, paths.length)];
    if (next)
      return {
        text: `Reading ${next} too, to be thorough.`,
        toolCalls: [
          { name: 'read_file', argsText: JSON.stringify({ path: next, limit: 20 + reads.length }) },
        ],
      };
  }
  const done = reads.find((c) => c.result && !c.result.isError);
  if (!done && target && reads.length < 2) return { text: `Reading ${target}.`, toolCalls: [read(target)] };
  const gist = done?.result?.content
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*\d+\t/, '')
        .replace(/^#+\s*/, '')
        .trim(),
    )
    .find((line) => line.length > 20 && !line.includes('— lines'));
  const path = typeof done?.args?.path === 'string' ? done.args.path : target;
  return answerTurn({
    text: `The workspace has ${paths.length} files. ${path ? `${path}: "${gist ?? 'nothing notable'}".` : ''}`.trim(),
  });
}

function read(path: string): { name: string; argsText: string } {
  return { name: 'read_file', argsText: JSON.stringify({ path }) };
}
