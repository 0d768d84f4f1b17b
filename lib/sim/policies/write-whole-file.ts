import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn } from './history';
import { decideWorkerStep, decisionTurn } from './worker';

/**
 * Does the work like the worker, but makes its fix by writing the whole file back (write_file
 * with every line) instead of a small edit: a long call, the one an output cap cuts mid-arguments.
 * After one write_file it makes the worker's own edit, as a model told to resend smaller would.
 */
export function createWriteWholeFilePolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const decision = decideWorkerStep({ scenario, request });
    const fix = scenario.hints.fix;
    const original = fix ? scenario.files[fix.path] : undefined;
    const wrote = callHistory(request.messages).some((r) => r.name === 'write_file');
    const offered = request.tools.some((t) => t.name === 'write_file');
    if (
      fix &&
      original !== undefined &&
      offered &&
      !wrote &&
      decision.kind === 'call' &&
      decision.name === 'edit_file'
    ) {
      const thinking = request.thinking
        ? `Simplest to write ${fix.path} back whole, with the fix in place.`
        : undefined;
      return callTurn({
        name: 'write_file',
        args: { path: fix.path, content: original.replace(fix.find, fix.replace) },
        ...(thinking ? { thinking } : {}),
      });
    }
    return decisionTurn({ decision, request, random });
  };
}
