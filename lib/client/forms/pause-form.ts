import type { ApprovalConfig, Breakpoint, PauseConfigInput } from '@/lib/protocol/pause';
import type { BreakableEvent } from '@/lib/protocol/pause-words';
import { checkNumber, ruleAt, type NumberProblem, type NumberRule } from './number-checks';

/**
 * The playground's breakpoints and tool approval (the run config's `pause`, lib/protocol/pause.ts)
 * as the control panel edits them, zod-free. pause-form.test.ts parses what these build with the
 * server's own schema, at the bounds and past them.
 */

export type BreakpointKind = Breakpoint['on'];

/** The bounds BreakpointSchema holds a breakpoint's number to (its bounds live in a union the bounds file does not walk). */
export const BREAKPOINT_RULES = {
  request: { min: 1, max: 10_000, int: true } satisfies NumberRule,
  cost: { min: 0, max: 1000, int: false, unit: 'dollars' } satisfies NumberRule,
};

const timeoutMsRule = ruleAt('pause.approval.timeoutMs');
/** The approval timeout as the form holds it: run-time seconds, the schema's milliseconds divided out. */
export const APPROVAL_TIMEOUT_RULE: NumberRule = {
  min: timeoutMsRule.min / 1000,
  max: timeoutMsRule.max / 1000,
  int: false,
  unit: 's',
};

/** The breakpoint the add row stands for (undefined while its number is not one). */
export function breakpointFrom(input: {
  kind: BreakpointKind;
  event: BreakableEvent;
  tool: string;
  request: number;
  usd: number;
}): Breakpoint | undefined {
  switch (input.kind) {
    case 'event':
      return { on: 'event', event: input.event };
    case 'tool':
      return input.tool ? { on: 'tool', tool: input.tool } : { on: 'tool' };
    case 'request':
      return Number.isInteger(input.request) && input.request >= 1 && input.request <= 10_000
        ? { on: 'request', request: input.request }
        : undefined;
    case 'cost':
      return Number.isFinite(input.usd) && input.usd >= 0 && input.usd <= 1000
        ? { on: 'cost', usd: input.usd }
        : undefined;
  }
}

/** The pause config with these breakpoints (null: nothing left to pause for). */
export function withBreakpoints(pause: PauseConfigInput, breakpoints: Breakpoint[]): PauseConfigInput | null {
  if (breakpoints.length === 0 && !pause.approval) return null;
  return { ...pause, breakpoints };
}

/** Which calls wait for approval, as the panel's select names it. */
export type ApprovalMode = 'off' | 'writes' | 'all' | 'named';

export function approvalMode(approval: ApprovalConfig | undefined): ApprovalMode {
  if (!approval) return 'off';
  return Array.isArray(approval.tools) ? 'named' : approval.tools;
}

/**
 * The pause config with this approval. `tools` are the named tools (mode `named`); `timeoutSec`
 * null: the run waits, its clock held; a number: denied after that much run time.
 */
export function withApproval(
  pause: PauseConfigInput,
  choice: { mode: ApprovalMode; tools: string[]; timeoutSec: number | null },
): PauseConfigInput | null {
  const { approval: _old, ...rest } = pause;
  if (choice.mode === 'off') return (rest.breakpoints?.length ?? 0) > 0 ? rest : null;
  // Named with none ticked yet is kept as an empty list: approvalProblems says what to do, and Run waits.
  const tools = choice.mode === 'named' ? choice.tools : choice.mode;
  const timeoutMs =
    choice.timeoutSec === null
      ? undefined
      : Number.isFinite(choice.timeoutSec)
        ? Math.round(choice.timeoutSec * 1000)
        : Number.NaN;
  return {
    ...rest,
    approval: { tools: tools as ApprovalConfig['tools'], ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
  };
}

/** What is wrong with the approval now, for the panel and the reason Run waits. */
export function approvalProblems(pause: PauseConfigInput | null): NumberProblem[] {
  const approval = pause?.approval;
  if (!approval) return [];
  const problems: NumberProblem[] = [];
  if (Array.isArray(approval.tools) && approval.tools.length === 0)
    problems.push({
      field: 'approval-tools',
      label: 'tool approval',
      message: 'names no tool: tick at least one, or choose another setting',
    });
  if (approval.timeoutMs !== undefined) {
    const message = checkNumber(approval.timeoutMs / 1000, APPROVAL_TIMEOUT_RULE);
    if (message) problems.push({ field: 'approval-timeout-seconds', label: 'deny after', message });
  }
  return problems;
}
