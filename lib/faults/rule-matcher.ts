import type { Random } from '@/lib/clock';
import type { FaultPlan, FaultRule, FaultWhen } from '@/lib/protocol';

/**
 * Where a fault plan stands after some requests: how many requests it has counted and how many
 * of its `next N` hits each rule has spent. A fork starts its plan from its parent's at the
 * copied turn (lib/runtime/fork-faults.ts), so a fault the parent already spent does not fire
 * again and rules on request numbers and chance count on from the parent's requests.
 */
export interface FaultPlanPosition {
  /** Requests the plan has already counted: this run's request n is the plan's request requestsBefore + n. */
  requestsBefore: number;
  /** `next N` hits spent, by rule id. */
  spent: Readonly<Record<string, number>>;
}

/**
 * Picks the rule that fires on a request: the first enabled rule whose `when` matches.
 * `next N` means the rule's next N hits: a rule waiting behind an earlier one spends nothing,
 * so toggles switched on together play in order (overloaded ×3, then a 429). Stateful only
 * in those hit counts; a rule switched off (or removed) is forgotten and re-arms when it
 * comes back. A plan edited between requests applies from the next request on.
 */
export class RuleMatcher {
  private readonly hits: Map<string, number>;

  /** `spent`: hits already spent before the first request (a fork's parent's). */
  constructor(
    private readonly random: Random,
    spent: Readonly<Record<string, number>> = {},
  ) {
    this.hits = new Map(Object.entries(spent));
  }

  /** The `next N` hits spent so far, by rule id (rules switched off since are forgotten). */
  spent(): Record<string, number> {
    return Object.fromEntries(this.hits);
  }

  match(options: {
    plan: FaultPlan;
    requestNo: number;
    background?: boolean;
    now?: number;
    model?: string | undefined;
  }): FaultRule | undefined {
    const { plan, requestNo } = options;
    const enabled = plan.rules.filter((rule) => rule.enabled !== false);
    // A rule aimed at one kind of call does not see the other kind (and spends nothing on it).
    const kind = options.background ? 'background' : 'foreground';
    const aimed = enabled.filter(
      (rule) =>
        (rule.target === undefined || rule.target === 'any' || rule.target === kind) &&
        (rule.model === undefined || rule.model === options.model),
    );
    const live = new Set(enabled.map((rule) => rule.id));
    for (const id of this.hits.keys()) if (!live.has(id)) this.hits.delete(id);
    const chosen = aimed.find((rule) =>
      this.matches({ rule, when: rule.when, requestNo, now: options.now ?? 0 }),
    );
    if (chosen?.when.kind === 'next') this.hits.set(chosen.id, (this.hits.get(chosen.id) ?? 0) + 1);
    return chosen;
  }

  private matches(options: { rule: FaultRule; when: FaultWhen; requestNo: number; now: number }): boolean {
    const { rule, when, requestNo } = options;
    switch (when.kind) {
      case 'always':
        return true;
      case 'requests':
        return when.numbers.includes(requestNo);
      case 'next':
        return (this.hits.get(rule.id) ?? 0) < when.count;
      case 'until':
        return options.now < when.ms;
      case 'probability':
        // One die per (rule, request), independent of which other rules were rolled or
        // toggled: the same seed gives the same faults whatever the plan's history.
        return this.random.fork(`${rule.id}#${requestNo}`).next() < when.p;
    }
  }
}
