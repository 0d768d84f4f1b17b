import { z } from 'zod';
import type { Scenario } from '../scenario';
import type { Tool } from '../types';
import { ok } from './tool-result';

const input = z.strictObject({});

/**
 * Runs the scenario's check against the current workspace. A failing check is an answer,
 * not a tool failure: the result starts with PASS or FAIL and is not marked is_error.
 */
export function createRunCheckTool(options: { scenario: Scenario }): Tool<z.infer<typeof input>> {
  const { scenario } = options;
  return {
    name: 'run_check',
    description: `Run the project's check (${scenario.checkLabel ?? 'its tests'}) against the workspace and report PASS or FAIL with the output.`,
    input,
    run(_args, { workspace }) {
      const result = scenario.check(workspace);
      return ok(`${result.passed ? 'PASS' : 'FAIL'}\n${result.output}`);
    },
  };
}
