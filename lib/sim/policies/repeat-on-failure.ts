import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn } from './history';
import { thinkingFor } from './thinking-lines';
import { decideWorkerStep, decisionTurn } from './worker';

/** Attempts of one failing call, including the first, before the policy moves on. */
const MAX_ATTEMPTS = 4;

/** A path next to the first hinted file that does not exist in the workspace. */
export function missingPath(scenario: Scenario): string {
  const base = scenario.hints.read[0] ?? 'README.md';
  const candidate = base.replace(/(\.[^./]+)?$/, (ext) => `.orig${ext}`);
  return candidate in scenario.files ? `${candidate}.missing` : candidate;
}

/**
 * Repeats the exact call that just failed, as a model without recovery would. It opens by
 * reading a file that does not exist; after MAX_ATTEMPTS identical failures it does the work.
 */
export function createRepeatOnFailurePolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const history = callHistory(request.messages);
    const thinking = (text: string): string | undefined => (request.thinking ? text : undefined);
    if (history.length === 0 && request.tools.some((t) => t.name === 'read_file')) {
      const path = missingPath(scenario);
      return callTurn({
        name: 'read_file',
        args: { path },
        thinking: thinking(thinkingFor({ intent: { kind: 'read', path }, random })),
      });
    }
    const last = history[history.length - 1];
    if (last?.result?.isError) {
      let streak = 0;
      for (
        let i = history.length - 1;
        i >= 0 && history[i]!.name === last.name && history[i]!.argsText === last.argsText;
        i--
      )
        streak++;
      if (streak < MAX_ATTEMPTS) {
        return {
          ...(request.thinking
            ? { thinking: `That failed, but it should work. Run ${last.name} again exactly as before.` }
            : {}),
          toolCalls: [{ name: last.name, argsText: last.argsText }],
        };
      }
    }
    return decisionTurn({ decision: decideWorkerStep({ scenario, request }), request, random });
  };
}
