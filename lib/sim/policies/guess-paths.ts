import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn } from './history';

const DIRS = ['src', 'config', 'lib', 'settings', 'app', 'conf'];
const NAMES = ['config.js', 'config.json', 'settings.js', 'config.ts', 'defaults.json', 'env.js'];

/** The n-th path the model guesses: a plausible config file the scenario does not have. */
export function guessedPath(scenario: Scenario, n: number): string {
  const paths = NAMES.flatMap((name) => DIRS.map((dir) => `${dir}/${name}`)).filter(
    (p) => !(p in scenario.files),
  );
  return paths[n % paths.length]!;
}

/**
 * A model stuck on a wrong idea: it is sure a config file exists and reads one guessed path
 * after another, each "not found", never the same path twice (so no repeat is blocked), and
 * never stops on its own — what ends it is the loop guard's halt or a run budget.
 */
export function createGuessPathsPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request) => {
    const reads = callHistory(request.messages).filter((r) => r.name === 'read_file');
    const path = guessedPath(scenario, reads.length);
    const thinking = request.thinking
      ? reads.length === 0
        ? `The behaviour must come from a config file; ${path} is the usual place.`
        : `Not there either. It must be ${path}.`
      : undefined;
    return callTurn({ name: 'read_file', args: { path }, ...(thinking ? { thinking } : {}) });
  };
}
