import type { Random } from '@/lib/clock';
import type { FaultPlan, FaultRule, FaultWhen } from '@/lib/protocol';

/**
 * Picks the rule that fires on a request: the first enabled rule whose `when` matches.
 * Stateful only in what `next` needs (the request a rule was first seen enabled on), so a
 * plan edited between requests applies from the next request on.
 */
export class RuleMatcher {
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly random: Random) {}

  match(options: { plan: FaultPlan; requestNo: number }): FaultRule | undefined {
    const { plan, requestNo } = options;
    const enabled = plan.rules.filter((rule) => rule.enabled !== false);
    // Note every enabled rule before choosing one, so a `next` window counts from when the
    // rule appeared even while an earlier rule is the one firing.
    for (const rule of enabled) {
      if (!this.firstSeen.has(rule.id)) this.firstSeen.set(rule.id, requestNo);
    }
    // A rule switched off (or removed) is forgotten: switching it on again re-arms `next`.
    const live = new Set(enabled.map((rule) => rule.id));
    for (const id of this.firstSeen.keys()) if (!live.has(id)) this.firstSeen.delete(id);
    return enabled.find((rule) => this.matches({ rule, when: rule.when, requestNo }));
  }

  private matches(options: { rule: FaultRule; when: FaultWhen; requestNo: number }): boolean {
    const { rule, when, requestNo } = options;
    switch (when.kind) {
      case 'always':
        return true;
      case 'requests':
        return when.numbers.includes(requestNo);
      case 'next':
        return requestNo < (this.firstSeen.get(rule.id) ?? requestNo) + when.count;
      case 'probability':
        // One die per (rule, request), independent of which other rules were rolled or
        // toggled: the same seed gives the same faults whatever the plan's history.
        return this.random.fork(`${rule.id}#${requestNo}`).next() < when.p;
    }
  }
}
