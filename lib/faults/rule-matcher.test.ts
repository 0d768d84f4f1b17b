import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import type { FaultPlan, FaultRule, FaultWhen } from '@/lib/protocol';
import { RuleMatcher } from './rule-matcher';

const rule = (id: string, when: FaultWhen, enabled = true): FaultRule => ({
  id,
  enabled,
  when,
  action: { type: 'http_error', status: 529 },
});
const planOf = (...rules: FaultRule[]): FaultPlan => ({ rules, tools: [] });

function firing(matcher: RuleMatcher, plan: FaultPlan, from: number, to: number): Array<string | undefined> {
  const out: Array<string | undefined> = [];
  for (let n = from; n <= to; n++) out.push(matcher.match({ plan, requestNo: n })?.id);
  return out;
}

describe('RuleMatcher', () => {
  it('an `until` rule hits every request sent before its run-clock time, however many', () => {
    const m = new RuleMatcher(createRandom(1));
    const plan = planOf(rule('limit', { kind: 'until', ms: 20_000 }));
    expect(
      [0, 1_000, 7_000, 19_999, 20_000, 40_000].map((now, i) => m.match({ plan, requestNo: i + 1, now })?.id),
    ).toEqual(['limit', 'limit', 'limit', 'limit', undefined, undefined]);
  });

  it('a rule naming a model hits only requests to that model', () => {
    const m = new RuleMatcher(createRandom(1));
    const plan = planOf({ ...rule('busy', { kind: 'always' }), model: 'claude-sim-sonnet' });
    expect(
      ['claude-sim-sonnet', 'claude-sim-haiku', undefined].map(
        (model, i) => m.match({ plan, requestNo: i + 1, model })?.id,
      ),
    ).toEqual(['busy', undefined, undefined]);
  });

  it('a rule aimed at background calls skips foreground requests and spends its hits only on background ones', () => {
    const m = new RuleMatcher(createRandom(1));
    const plan = planOf(
      { ...rule('bg', { kind: 'next', count: 2 }), target: 'background' },
      { ...rule('fg', { kind: 'always' }), target: 'foreground' },
    );
    const kinds = [false, true, false, true, true];
    expect(kinds.map((background, i) => m.match({ plan, requestNo: i + 1, background })?.id)).toEqual([
      'fg',
      'bg',
      'fg',
      'bg',
      undefined,
    ]);
  });

  it('matches request numbers, always, and the first enabled rule wins', () => {
    const m = new RuleMatcher(createRandom(1));
    const plan = planOf(
      rule('off', { kind: 'always' }, false),
      rule('two', { kind: 'requests', numbers: [2, 4] }),
      rule('any', { kind: 'always' }),
    );
    expect(firing(m, plan, 1, 5)).toEqual(['any', 'two', 'any', 'two', 'any']);
  });

  it('fires a `next` N rule on its next N hits, from when it is switched on', () => {
    const m = new RuleMatcher(createRandom(1));
    expect(firing(m, planOf(), 1, 3)).toEqual([undefined, undefined, undefined]);
    const later = planOf(rule('n', { kind: 'next', count: 2 }));
    expect(firing(m, later, 4, 7)).toEqual(['n', 'n', undefined, undefined]);
    // Disabled while first present: the window starts when it is switched on.
    const m2 = new RuleMatcher(createRandom(1));
    firing(m2, planOf(rule('n', { kind: 'next', count: 1 }, false)), 1, 2);
    expect(firing(m2, planOf(rule('n', { kind: 'next', count: 1 })), 3, 4)).toEqual(['n', undefined]);
  });

  it('a `next` rule waiting behind an earlier rule spends nothing: toggles play in order', () => {
    const m = new RuleMatcher(createRandom(1));
    const plan = planOf(
      rule('first', { kind: 'requests', numbers: [1] }),
      rule('n', { kind: 'next', count: 2 }),
    );
    expect(firing(m, plan, 1, 4)).toEqual(['first', 'n', 'n', undefined]);
    const stacked = new RuleMatcher(createRandom(1));
    const both = planOf(rule('o3', { kind: 'next', count: 3 }), rule('r1', { kind: 'next', count: 1 }));
    expect(firing(stacked, both, 1, 5)).toEqual(['o3', 'o3', 'o3', 'r1', undefined]);
  });

  it('rolls probability dice that depend only on seed, rule and request number', () => {
    const plan = planOf(rule('p', { kind: 'probability', p: 0.3 }));
    const a = firing(new RuleMatcher(createRandom(42)), plan, 1, 200);
    const b = firing(new RuleMatcher(createRandom(42)), plan, 1, 200);
    const c = firing(new RuleMatcher(createRandom(43)), plan, 1, 200);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const hits = a.filter(Boolean).length;
    expect(hits).toBeGreaterThan(40);
    expect(hits).toBeLessThan(80);
    // Another rule in front (firing on some requests) does not move this rule's dice.
    const withFront = firing(
      new RuleMatcher(createRandom(42)),
      planOf(rule('x', { kind: 'requests', numbers: [5] }), rule('p', { kind: 'probability', p: 0.3 })),
      1,
      200,
    );
    expect(withFront.map((id, i) => (i === 4 ? a[4] : id))).toEqual(a);
    expect(
      firing(new RuleMatcher(createRandom(1)), planOf(rule('p', { kind: 'probability', p: 0 })), 1, 50).every(
        (x) => x === undefined,
      ),
    ).toBe(true);
    expect(
      firing(new RuleMatcher(createRandom(1)), planOf(rule('p', { kind: 'probability', p: 1 })), 1, 50).every(
        (x) => x === 'p',
      ),
    ).toBe(true);
  });
});

describe('RuleMatcher re-arming', () => {
  it('a `next` rule switched off and on again fires again from the request it reappears on', () => {
    const matcher = new RuleMatcher(createRandom(1));
    const rule = {
      id: 'n',
      enabled: true,
      when: { kind: 'next' as const, count: 1 },
      action: { type: 'http_error' as const, status: 529 as const },
    };
    const on = { rules: [rule], tools: [] };
    const off = { rules: [], tools: [] };
    expect(matcher.match({ plan: on, requestNo: 1 })?.id).toBe('n');
    expect(matcher.match({ plan: on, requestNo: 2 })).toBeUndefined();
    expect(matcher.match({ plan: off, requestNo: 3 })).toBeUndefined();
    expect(matcher.match({ plan: on, requestNo: 4 })?.id).toBe('n');
    expect(matcher.match({ plan: on, requestNo: 5 })).toBeUndefined();
  });
});
