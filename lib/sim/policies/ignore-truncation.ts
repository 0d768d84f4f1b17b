import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn, isSameCall } from './history';
import { decideWorkerStep, decisionTurn } from './worker';

/** Reads of the same truncated result before the policy gives up on re-reading. */
const MAX_READS = 4;

/** The note a truncating executor appends, in any of its usual wordings. */
export function looksTruncated(content: string): boolean {
  return /truncat|\[\.\.\.\]|use offset|more (lines|chars|characters)|omitted/i.test(content);
}

/** The biggest file in the workspace: the one most likely to come back truncated. */
function biggestFile(scenario: Scenario): string | undefined {
  const entries = Object.entries(scenario.files).sort(([, a], [, b]) => b.length - a.length);
  return entries[0]?.[0];
}

/**
 * Reads the biggest file and, when the result comes back truncated, reads the very same
 * thing again instead of paging with offset; after MAX_READS it does the work.
 */
export function createIgnoreTruncationPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  const path = biggestFile(scenario);
  return (request, random) => {
    const history = callHistory(request.messages);
    const canRead = path !== undefined && request.tools.some((t) => t.name === 'read_file');
    const reads = history.filter((r) => path !== undefined && isSameCall(r, 'read_file', { path }));
    const last = history[history.length - 1];
    const thinking = request.thinking ? `I need the whole of ${path ?? 'the file'}; read it.` : undefined;
    if (canRead && history.length === 0)
      return callTurn({ name: 'read_file', args: { path: path! }, thinking });
    if (
      canRead &&
      last &&
      reads.includes(last) &&
      last.result &&
      looksTruncated(last.result.content) &&
      reads.length < MAX_READS
    ) {
      return callTurn({ name: 'read_file', args: { path: path! }, thinking });
    }
    return decisionTurn({ decision: decideWorkerStep({ scenario, request }), request, random });
  };
}
