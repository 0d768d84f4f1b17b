import type { FaultRule, PresetId, RunConfigInput } from '@/lib/protocol';
import type { MatrixVendor } from './baseline';

/**
 * A task of its own, so the simulated model looks around and answers in three turns (list,
 * read, answer) instead of the scenario's nine: every turn streams thinking (where the
 * vendor has it), text and a tool call, so every point is reached in the first request, and
 * a cell runs in well under 0.1 s on the virtual clock.
 */
export const MATRIX_TASK = 'Describe this project: what is in the workspace and what it is for.';

/** The run config of a matrix cell (or, without a rule, of its column's unfaulted baseline). */
export function matrixConfig(options: {
  vendor: MatrixVendor;
  preset: PresetId;
  rule?: FaultRule;
}): RunConfigInput {
  return {
    provider: { vendor: options.vendor },
    preset: options.preset,
    task: MATRIX_TASK,
    clock: 'virtual',
    seed: 1,
    faults: { rules: options.rule ? [options.rule] : [], tools: [] },
  };
}
