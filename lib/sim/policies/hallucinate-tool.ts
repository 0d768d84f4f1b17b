import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn } from './history';
import { decideWorkerStep, decisionTurn } from './worker';

/** Tools models often assume exist. */
const IMAGINED = [
  { name: 'bash', args: (path: string) => ({ command: `cat ${path}` }) },
  { name: 'run_tests', args: () => ({}) },
  { name: 'open_file', args: (path: string) => ({ filename: path }) },
  { name: 'grep', args: (path: string) => ({ query: 'TODO', file: path }) },
];

/** How many imagined calls a conversation gets before the policy only uses real tools. */
const MAX_IMAGINED = 2;

/**
 * Calls a tool the request never offered (at the start, and once more after the first check),
 * then recovers and does the work with the real tools.
 */
export function createHallucinateToolPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const offered = new Set(request.tools.map((t) => t.name));
    const history = callHistory(request.messages);
    const imagined = history.filter((r) => !offered.has(r.name));
    const last = history[history.length - 1];
    const firstCheckJustRan =
      last?.name === 'run_check' && history.filter((r) => r.name === 'run_check').length === 1;
    const candidates = IMAGINED.filter((t) => !offered.has(t.name));
    if (
      request.tools.length > 0 &&
      candidates.length > 0 &&
      imagined.length < MAX_IMAGINED &&
      (history.length === 0 || (imagined.length === 1 && firstCheckJustRan))
    ) {
      const tool = random.pick(candidates);
      const path = scenario.hints.read[0] ?? '.';
      const thinking = request.thinking ? `The quickest way is the ${tool.name} tool.` : undefined;
      return callTurn({ name: tool.name, args: tool.args(path), thinking });
    }
    return decisionTurn({ decision: decideWorkerStep({ scenario, request }), request, random });
  };
}
