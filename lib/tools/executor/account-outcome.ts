import type { ToolCallPart } from '@/lib/protocol';
import type { CallRules, Outcome } from './call-rules';
import * as text from './messages';

/** Books the outcome in the budget and the loop guard; adds their notes to the text. */
export function accountOutcome(
  rules: CallRules,
  call: ToolCallPart,
  outcome: Outcome,
  iteration: number,
): { content: string; halt?: string } {
  const { toolbox, config, budget, guard } = rules;
  const name = call.name;
  let content = outcome.content;
  const ranAndFailed =
    outcome.status === 'error' || outcome.status === 'timeout' || outcome.status === 'invalid_args';
  if (config.safeExecutor && ranAndFailed && toolbox.get(name)) {
    // Tools that share an account (an MCP server's) are named by it: the count is theirs together.
    const account = toolbox.get(name)?.budgetKey;
    const { disabledNow } = budget.record({ tool: name, ...(outcome.key ? { key: outcome.key } : {}) });
    if (disabledNow) {
      rules.emitGuard(
        iteration,
        name,
        'disabled',
        `${account ? `the tools of ${account}` : name} failed ${text.timesWord(budget.failureCount(name))} (budget ${config.failureBudget})`,
        {
          budget_left: 0,
        },
      );
      content += `\n\n${text.disabledNow(name, budget.failureCount(name))}`;
    }
  }
  if (!config.loopGuard) return { content };
  const { consecutive, verdict } = guard.recordOutcome({ tool: name, isError: outcome.isError });
  if (verdict === 'halt') {
    const reason = `${name} failed ${text.timesWord(consecutive)} in a row (halt at ${config.haltAfterFailures})`;
    rules.emitGuard(iteration, name, 'halt', reason, { consecutive_failures: consecutive });
    return { content, halt: reason };
  }
  if (verdict === 'warning') {
    rules.emitGuard(iteration, name, 'warning', `${name} failed ${text.timesWord(consecutive)} in a row`, {
      consecutive_failures: consecutive,
    });
    content = `${text.warning(name, consecutive, config.haltAfterFailures)}\n\n${content}`;
  }
  return { content };
}
