import { findModel, type RunConfig } from '@/lib/protocol';
import { effectiveModel } from '@/lib/runtime/validate-config';

/** Dollars as the sweep's reasons write them (four places: a run can cost a fraction of a cent). */
function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/**
 * The most one run could cost, for a sweep's cost cap: its own cost budget (the loop stops at
 * a turn's boundary once it is spent) plus one more call at the model's prices with a full
 * context window and its whole output cap (the call in flight when the budget was reached).
 * Undefined for a model Loop Lab has no price for: its cost cannot be bounded.
 */
export function worstRunUsd(config: RunConfig): number | undefined {
  const model = findModel(effectiveModel(config));
  if (!model) return undefined;
  const output = Math.min(config.maxOutputTokens ?? model.maxOutputTokens, model.maxOutputTokens);
  const oneCall = (model.contextWindow * model.inputPrice + output * model.outputPrice) / 1_000_000;
  return config.budgets.maxCostUsd + oneCall;
}

/**
 * The cap's ledger: what the stored runs spent, and the worst case held for each run still
 * going. `admit` decides whether the next run may start, must wait for a run to end, or cannot
 * start at all: then the sweep stops, and that is its reason.
 */
export function createCostLedger(capUsd: number | undefined) {
  let spent = 0;
  const held = new Map<number, number>();
  const heldSum = (): number => [...held.values()].reduce((s, v) => s + v, 0);
  return {
    get spentUsd(): number {
      return spent;
    },
    /**
     * `go`: the run may start (its worst case is now held). `wait`: it fits beside what was spent
     * but not beside what runs still going could spend; ask again when one ends. Else the reason
     * the sweep stops before it: what was spent plus its worst case could pass the cap.
     */
    admit(job: { index: number; config: RunConfig }, total: number): 'go' | 'wait' | { stop: string } {
      if (capUsd === undefined) return 'go';
      const worst = worstRunUsd(job.config);
      if (worst === undefined)
        return {
          stop: `cost cap: run ${job.index + 1} of ${total} has no price (model "${effectiveModel(job.config)}"), so the ${formatUsd(capUsd)} cap cannot bound it; the sweep stopped before it`,
        };
      if (spent + heldSum() + worst <= capUsd) {
        held.set(job.index, worst);
        return 'go';
      }
      if (held.size > 0 && spent + worst <= capUsd) return 'wait';
      return {
        stop:
          `cost cap: the sweep stopped before run ${job.index + 1} of ${total}: ${formatUsd(spent)} spent, and this run could cost up to ` +
          `${formatUsd(worst)} (its ${formatUsd(job.config.budgets.maxCostUsd)} budget and one more call at a full context window), which could pass the ${formatUsd(capUsd)} cap`,
      };
    },
    settle(index: number, usd: number): void {
      held.delete(index);
      spent += usd;
    },
    release(index: number): void {
      held.delete(index);
    },
  };
}
