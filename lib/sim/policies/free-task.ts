import type { Random } from '@/lib/clock';
import type { PolicyRequest, PolicyTurn } from '../types';
import { answerTurn, callHistory, callTurn, findTool } from './history';
import { thinkingFor } from './thinking-lines';

/** The task text of a request: its first user message. */
function taskOf(request: PolicyRequest): string {
  const first = request.messages.find((m) => m.role === 'user');
  return (first?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/**
 * A task the scenario's script does not cover (the CLI's --task, the API's `task`): the
 * simulated model looks around — lists the workspace, reads the most telling file — and
 * answers from what it read. It does not pretend to have done work it has no script for.
 */
export function freeTaskTurn(request: PolicyRequest, random: Random): PolicyTurn {
  const history = callHistory(request.messages);
  const thinking = (kind: 'list' | 'answer', path?: string): string | undefined =>
    request.thinking ? thinkingFor({ intent: path ? { kind: 'read', path } : { kind }, random }) : undefined;
  const listing = history.find((c) => c.name === 'list_files' && c.result && !c.result.isError);
  if (!listing && findTool(request, 'list_files') && history.length === 0) {
    return callTurn({
      name: 'list_files',
      args: {},
      thinking: thinking('list'),
      text: 'Let me look at the workspace first.',
    });
  }
  const read = history.find((c) => c.name === 'read_file' && c.result && !c.result.isError);
  const paths = (listing?.result?.content.match(/^\S+\.\w+/gm) ?? []).filter(
    (p) => p.includes('/') || p.includes('.'),
  );
  const target = paths.find((p) => /readme/i.test(p)) ?? paths[0];
  if (!read && target && findTool(request, 'read_file') && history.length < 3) {
    return callTurn({
      name: 'read_file',
      args: { path: target },
      thinking: thinking('answer', target),
      text: `Reading ${target}.`,
    });
  }
  const gist = read?.result?.content
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*\d+\t/, '')
        .replace(/^#+\s*/, '')
        .trim(),
    )
    .filter((line) => line.length > 20 && !line.includes('— lines'))[0];
  const seen =
    paths.length > 0
      ? `The workspace has ${paths.length} files${target ? `; ${target} says: "${gist ?? 'nothing notable'}"` : ''}.`
      : 'I could not list the workspace.';
  return answerTurn({
    thinking: thinking('answer'),
    text: `${seen} On the task ("${taskOf(request).slice(0, 120)}"): this simulated model only knows how to do the scenario's own task, so this is as far as it goes — run a real vendor for an open-ended task.`,
  });
}
