import type { PresetId, RecoveryConfig, RunConfigInput, RunEvent } from '@/lib/protocol';
import { resolveRecovery } from '@/lib/protocol/presets';
import { vendorDefaults } from '@/lib/protocol/vendors';
import type { ModuleMatrixCell, ModuleMatrixGap, ModuleMatrixRows } from '@/lib/mechanisms/module';
import { endsOf, ending, inner, of, sameSteps, type Step, subOf, treeChecks } from './matrix-checks';

/**
 * Sub-agents in the fault matrix: the simulated model delegates three survey tasks at once
 * (lib/sim/policies/delegation.ts), and each row makes the tree fail one way, on every vendor ×
 * preset: a child that overruns its turns, one that loops, the children's own model down, the
 * vendor down for the whole tree after the parent's first request, and many children on one rate
 * limit (on their own attempt accounts, and on CodeSmith sharing the run's). Each promise is read
 * from the effective config (the preset with the cell's overrides: its loop guard, its ladder, the
 * SDK's retries, the sub-agent fields), never from the preset's name. Every cell also holds the
 * tree's accounts to the log: each start has one end, each end's requests, cost and tokens are its
 * child's own, `children_requests` is their running sum, the parent's decision after each end is
 * the table's (README.md), and the run ends within its run-clock budget (./matrix-checks.ts).
 */

const SEED = 2;
/** The run's own attempt budget in the rate-limit rows, as in the lesson. */
const RUN_ATTEMPTS = 20;
/** The requests the rate limit refuses: the nine after the parent's first. */
const LIMITED = [2, 3, 4, 5, 6, 7, 8, 9, 10];
/** The children the simulated model starts (its three survey tasks). */
const CHILDREN = 3;
/** The vendor down: HTTP 529 overloaded (the OpenAI dialects answer it as 503), a status every ladder but a retry-off one retries. */
const DOWN = { type: 'http_error', status: 529 } as const;

/** Whether the loop's own ladder retries a rate limit or an overload (both families every retrying preset covers). */
const loopRetries = (r: RecoveryConfig) => r.retry.enabled && r.retry.maxRetries > 0;

const every = (steps: Step[]): Record<string, Step[]> =>
  Object.fromEntries(Array.from({ length: CHILDREN }, (_, k) => [`c${k + 1}`, steps]));

interface Row {
  label: string;
  /** Only on this preset (the rest run on every one). */
  only?: PresetId;
  config(vendor: string): Omit<RunConfigInput, 'provider' | 'preset' | 'seed'>;
  promise(
    recovery: RecoveryConfig,
    vendor: string,
  ): { says: string; check(events: readonly RunEvent[]): string[] };
}

const withDelegate = (tools: RecoveryConfig['tools'] | object = {}) => ({
  tools: { delegate: true, ...tools },
});
type Plan = NonNullable<RunConfigInput['faults']>;
const faultPlan = (plan: Pick<Plan, 'rules' | 'subagents'>): Plan => ({ rules: [], tools: [], ...plan });

/** The children's turns and the other children's ends, when child 2 misbehaves on its own. */
function secondChild(step: Step): Record<string, Step[]> {
  return { c1: ['answered/accept'], c2: [step], c3: ['answered/accept'] };
}

const ROWS: readonly Row[] = [
  {
    label: 'a child overruns its turns',
    config: () => ({
      recovery: withDelegate(),
      faults: faultPlan({ subagents: [{ id: 'overrun', enabled: true, kind: 'overruns', child: 2 }] }),
    }),
    promise: (recovery) => {
      const sub = subOf(recovery);
      return {
        says: `c2 spends its ${sub.turns} turns: budget_spent, given up; the others answer; the run ends its turn, task done`,
        check: (events) => {
          const turns = of(events, 'subagent_event').filter(
            (e) => e.child === 'c2' && inner(e).event === 'iteration_start',
          ).length;
          return [
            ...sameSteps(events, secondChild('budget_spent/give_up')),
            ...(turns === sub.turns ? [] : [`c2 ran ${turns} turns, its budget is ${sub.turns}`]),
            ...ending(events, 'end_turn', true),
          ];
        },
      };
    },
  },
  {
    label: 'a child loops',
    config: () => ({
      recovery: withDelegate(),
      faults: faultPlan({ subagents: [{ id: 'loop', enabled: true, kind: 'loops', child: 2 }] }),
    }),
    promise: (recovery) => {
      const guard = recovery.tools.loopGuard;
      return {
        says: guard
          ? 'its loop guard blocks c2’s repeats: looped, given up; the others answer; task done'
          : 'no loop guard: c2 repeats its call until its turns run out (budget_spent), given up; task done',
        check: (events) => {
          const blocked = of(events, 'subagent_event').filter((e) => {
            const i = inner(e);
            return e.child === 'c2' && i.event === 'tool_guard' && i.kind === 'blocked';
          }).length;
          return [
            ...sameSteps(events, secondChild(guard ? 'looped/give_up' : 'budget_spent/give_up')),
            ...(blocked > 0 === guard ? [] : [`its loop guard blocked ${blocked} of c2's repeats`]),
            ...ending(events, 'end_turn', true),
          ];
        },
      };
    },
  },
  {
    label: 'the children’s model is down',
    config: (vendor) => {
      const model = vendorDefaults(vendor).fallback;
      return {
        recovery: withDelegate({ subagentModel: model }),
        faults: faultPlan({
          rules: [{ id: 'down', enabled: true, model, when: { kind: 'always' }, action: DOWN }],
        }),
      };
    },
    promise: (_recovery, vendor) => ({
      says: `every child fails on ${vendorDefaults(vendor).fallback} (vendor_failed), falls back to the run's model and answers; task done`,
      check: (events) => {
        const failures = [
          ...sameSteps(events, every(['vendor_failed/fallback', 'answered/accept'])),
          ...ending(events, 'end_turn', true),
        ];
        const runModel = of(events, 'run_start')[0]?.model;
        for (const s of of(events, 'subagent_start').filter((s) => s.try === 2))
          if (s.model !== runModel)
            failures.push(`${s.child}'s second try ran on ${s.model}, not ${runModel}`);
        return failures;
      },
    }),
  },
  ...[undefined, 0].map((retries): Row => ({
    label: `the vendor is down for the whole tree${retries === 0 ? ', child retries off' : ''}`,
    ...(retries === 0 ? { only: 'codesmith' as const } : {}),
    config: () => ({
      recovery: withDelegate(retries === 0 ? { subagentRetries: 0 } : {}),
      faults: faultPlan({
        rules: [
          {
            id: 'down',
            enabled: true,
            when: { kind: 'requests', numbers: Array.from({ length: 999 }, (_, k) => k + 2) },
            action: DOWN,
          },
        ],
      }),
    }),
    promise: (recovery) => {
      const sub = subOf(recovery);
      const reason = loopRetries(recovery) ? 'retries_exhausted' : 'model_error';
      const steps: Step[] = [
        ...Array.from({ length: sub.retries }, (): Step => 'vendor_failed/retry'),
        'vendor_failed/give_up',
      ];
      return {
        says: `every child fails (vendor_failed), ${sub.retries === 0 ? 'is given up at once (child retries off)' : `runs again ${sub.retries}× with a fresh seed, then is given up`}; the parent's next request fails too: ${reason}`,
        check: (events) => [...sameSteps(events, every(steps)), ...ending(events, reason, false)],
      };
    },
  })),
  ...[false, true].map((shared): Row => ({
    label: `the children hit one rate limit${shared ? ', sharing the run’s attempts' : ''}`,
    ...(shared ? { only: 'codesmith' as const } : {}),
    config: () => ({
      recovery: withDelegate(shared ? { subagentSharesAttempts: true, subagentRetries: 0 } : {}),
      budgets: { maxAttempts: RUN_ATTEMPTS },
      faults: faultPlan({
        rules: [
          {
            id: 'limit',
            enabled: true,
            when: { kind: 'requests', numbers: LIMITED },
            action: { type: 'http_error', status: 429 },
          },
        ],
      }),
    }),
    promise: (recovery) => rateLimitPromise(recovery, shared),
  })),
];

/**
 * Many children on one rate limit. What the tree can take: each child try fails only after its
 * ladder's attempts (its own account caps them), each of those the SDK's own retries deep; three
 * children, each tried 1 + subagentRetries times. Taking all nine refusals, the parent's next request
 * goes through and the run ends its turn; otherwise the parent meets the limit on a ladder that gave
 * up as soon (model_error). Shared, every request of the tree comes out of the run's 20.
 */
function rateLimitPromise(recovery: RecoveryConfig, shared: boolean) {
  const sub = subOf(recovery);
  const ladder = loopRetries(recovery) ? recovery.retry.maxRetries + 1 : 1;
  const perTry = Math.min(ladder, sub.shared ? RUN_ATTEMPTS : sub.attempts) * (1 + recovery.sdkMaxRetries);
  const taken = CHILDREN * (1 + sub.retries) * perTry;
  const reason = shared ? 'attempt_budget' : taken >= LIMITED.length ? 'end_turn' : 'model_error';
  const says = shared
    ? `every request of the tree counts in the run's ${RUN_ATTEMPTS}: the children's retries spend the parent's, which stops on attempt_budget, task not done`
    : `the children take ${Math.min(taken, LIMITED.length)} of the ${LIMITED.length} refusals on their own accounts (up to ${perTry} a try, ${1 + sub.retries} ${sub.retries === 0 ? 'try' : 'tries'} each): the run ends ${reason}`;
  return {
    says: `${says}; tree-wide attempts are the transport's count`,
    check: (events: readonly RunEvent[]) => {
      const failures = ending(events, reason, reason === 'end_turn');
      const parent = of(events, 'model_request').length;
      const children = endsOf(events).at(-1)?.children_requests ?? 0;
      const sdk = of(events, 'sdk_retry').length;
      const tree = parent + children + sdk;
      // Tree-wide attempts: every HTTP request is the parent's, a child's or the SDK's resend of one, each
      // logged before it is sent (children side by side may announce theirs before the transport numbers
      // them): counted in log order, the tree has sent at least as many as the refused request's number.
      let sent = 0;
      const refused: number[] = [];
      for (const e of events) {
        const request =
          e.event === 'model_request' ||
          e.event === 'sdk_retry' ||
          (e.event === 'subagent_event' && inner(e).event === 'model_request');
        if (request) sent += 1;
        if (e.event === 'fault_injected') {
          refused.push(e.request_no ?? 0);
          if ((e.request_no ?? 0) > sent)
            failures.push(`the limit refused request ${e.request_no}, but the tree had sent ${sent} by then`);
        }
      }
      const reached = LIMITED.filter((n) => n <= tree);
      if (JSON.stringify(refused) !== JSON.stringify(reached))
        failures.push(
          `the limit refused requests ${JSON.stringify(refused)}, but the tree made ${tree} (parent ${parent}, children ${children}, SDK resends ${sdk})`,
        );
      if (shared && parent + children > RUN_ATTEMPTS)
        failures.push(`shared, the tree made ${parent + children} requests, over the run's ${RUN_ATTEMPTS}`);
      if (!shared && parent > RUN_ATTEMPTS)
        failures.push(`the parent made ${parent} requests of its own, over its ${RUN_ATTEMPTS}`);
      return failures;
    },
  };
}

/** Its rows in the fault matrix: each way the tree fails, on every vendor × preset (two on CodeSmith alone). */
export const MATRIX: ModuleMatrixRows = {
  title: 'sub-agents (delegate)',
  cells: ({ vendors, presets }) =>
    ROWS.flatMap((row) =>
      vendors.flatMap((vendor) =>
        presets
          .filter((preset) => !row.only || row.only === preset)
          .map((preset): ModuleMatrixCell | ModuleMatrixGap => {
            const config = { provider: { vendor }, preset, seed: SEED, ...row.config(vendor) };
            const recovery = resolveRecovery(preset, config.recovery);
            const promise = row.promise(recovery, vendor);
            return {
              label: `${vendor} × ${preset} × ${row.label}`,
              config,
              promise: promise.says,
              check: (events) => [...promise.check(events), ...treeChecks(events, subOf(recovery))],
            };
          }),
      ),
    ),
};
