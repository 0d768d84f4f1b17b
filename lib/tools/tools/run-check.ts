import { z } from 'zod';
import type { Scenario } from '../scenario';
import type { Tool } from '../types';
import { fail, ok } from './tool-result';

const input = z.strictObject({});

/**
 * Runs the scenario's check against the current workspace. A failing check is an answer,
 * not a tool failure: the result starts with PASS or FAIL and is not marked is_error. A check
 * the sandbox had to stop (time or memory limit, crash) is a tool failure: is_error, with why.
 * A check the machine was too busy to finish (`host_overloaded`) ends the run: its answer is unknown.
 * The check is real work in a child process, so the run's clock is held while it runs: on the
 * virtual clock no deadline fires just because a process took wall time to start.
 */
export function createRunCheckTool(options: { scenario: Scenario }): Tool<z.infer<typeof input>> {
  const { scenario } = options;
  return {
    name: 'run_check',
    sandboxed: true,
    description: `Run the project's check (${scenario.checkLabel ?? 'its tests'}) against the workspace and report PASS or FAIL with the output.`,
    input,
    async run(_args, { workspace, clock, signal, share }) {
      const result = await clock.hold(
        scenario.check(workspace, { signal, ...(share !== undefined ? { share } : {}) }),
      );
      const text = `${result.passed ? 'PASS' : 'FAIL'}\n${result.output}`;
      if (result.stopped === 'host_overloaded')
        return { ...fail(text), hostOverloaded: `run_check could not finish: ${result.output}` };
      return result.stopped ? fail(text) : ok(text);
    },
  };
}
