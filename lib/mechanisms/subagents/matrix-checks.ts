import type { EventOf, RecoveryConfig, RunEvent } from '@/lib/protocol';
import { DEFAULTS } from './defaults';

/**
 * What the sub-agent rows of the fault matrix (./matrix.ts) read from a cell's log: the sub-agent
 * settings a cell's effective config gives, each child's tries, and the checks every cell holds —
 * the tree's accounts, the parent's decision after each end as the table in README.md says, and an
 * end within the run clock's budget.
 */

export interface Sub {
  turns: number;
  attempts: number;
  shared: boolean;
  retries: number;
  model: string | undefined;
}

export function subOf(recovery: RecoveryConfig): Sub {
  const t = recovery.tools;
  return {
    turns: t.subagentTurns ?? DEFAULTS.subagentTurns,
    attempts: t.subagentAttempts ?? DEFAULTS.subagentAttempts,
    shared: t.subagentSharesAttempts ?? DEFAULTS.subagentSharesAttempts,
    retries: t.subagentRetries ?? DEFAULTS.subagentRetries,
    model: t.subagentModel,
  };
}

export const of = <T extends RunEvent['event']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.event === type);
export const inner = (e: EventOf<'subagent_event'>) => e.inner as unknown as RunEvent;
export const endsOf = (events: readonly RunEvent[]) => of(events, 'subagent_end');
export const key = (e: { child: string; try: number }) => `${e.child}.${e.try}`;

export type Step = `${EventOf<'subagent_end'>['outcome']}/${EventOf<'subagent_end'>['next']}`;

/** What every cell holds: the tree's accounts and the parent's decisions as the table says, and an end within the run clock's budget. */
export function treeChecks(events: readonly RunEvent[], sub: Sub): string[] {
  const failures: string[] = [];
  const start = of(events, 'run_start')[0];
  const runModel = start?.model;
  const starts = of(events, 'subagent_start');
  const ends = endsOf(events);
  if (starts.length === 0) failures.push('no sub-agent was started');
  const innerOf = (k: string) =>
    of(events, 'subagent_event')
      .filter((e) => key(e) === k)
      .map(inner);
  let running = 0;
  for (const s of starts) {
    const own = ends.filter((e) => key(e) === key(s));
    if (own.length !== 1) {
      failures.push(`${key(s)} has ${own.length} subagent_end events, not one`);
      continue;
    }
    const end = own[0]!;
    const log = innerOf(key(s));
    const last = log.at(-1);
    if (last?.event !== 'terminate') {
      failures.push(`${key(s)}'s own log does not end with terminate`);
      continue;
    }
    const requests = log.filter((e) => e.event === 'model_request').length;
    if (end.requests !== requests)
      failures.push(`${key(s)}'s end counts ${end.requests} requests, its log ${requests}`);
    if (end.usd !== last.usd_so_far || end.input_tokens !== last.input_tokens)
      failures.push(`${key(s)}'s end cost or tokens are not its terminate's`);
    if (end.reason !== last.reason)
      failures.push(`${key(s)}'s end says ${end.reason}, its log ${last.reason}`);
  }
  for (const end of ends) {
    running += end.requests;
    if (end.children_requests !== running)
      failures.push(
        `${key(end)}'s children_requests ${end.children_requests}, the children's sum ${running}`,
      );
    // The decision table (README.md): what the parent does after each kind of end.
    const fellBack = ends.some((e) => e.child === end.child && e.try < end.try && e.next === 'fallback');
    const want =
      end.outcome === 'answered'
        ? 'accept'
        : end.outcome !== 'vendor_failed'
          ? 'give_up'
          : end.model !== runModel && !fellBack
            ? 'fallback'
            : end.try <= sub.retries
              ? 'retry'
              : 'give_up';
    if (end.next !== want)
      failures.push(`${key(end)} ${end.outcome}: the parent did ${end.next}, the table says ${want}`);
    const again = starts.some((s) => s.child === end.child && s.try === end.try + 1);
    if (again !== (end.next === 'retry' || end.next === 'fallback'))
      failures.push(
        `${key(end)} next ${end.next}, but a try ${end.try + 1} ${again ? 'started' : 'never started'}`,
      );
    if (end.outcome !== 'answered' && end.next === 'give_up') {
      const result = of(events, 'tool_call').find((c) => c.call_id === end.call_id);
      if (!result?.is_error || !result.result?.startsWith(`Sub-agent ${end.child} did not finish`))
        failures.push(`${end.child} was given up, but its delegate call's result does not say so`);
    }
  }
  const end = events.at(-1);
  const budget = start?.config.budgets.maxRunMs;
  if (end?.event === 'terminate' && budget !== undefined && end.ts > budget)
    failures.push(`ended at ${end.ts} ms of run clock, past its budget of ${budget} ms`);
  return failures;
}

/** Each child's tries in order (`outcome/next`), by child. */
export function stepsByChild(events: readonly RunEvent[]): Record<string, Step[]> {
  const out: Record<string, Step[]> = {};
  for (const e of [...endsOf(events)].sort((a, b) => a.child.localeCompare(b.child) || a.try - b.try))
    (out[e.child] ??= []).push(`${e.outcome}/${e.next}`);
  return out;
}

export function ending(events: readonly RunEvent[], reason: string, done: boolean): string[] {
  const failures: string[] = [];
  const end = events.at(-1);
  if (end?.event !== 'terminate' || end.reason !== reason)
    failures.push(`ended ${end?.event === 'terminate' ? end.reason : end?.event}, promised ${reason}`);
  const verdict = of(events, 'task_verdict')[0]?.verdict;
  if ((verdict === 'done') !== done)
    failures.push(`verdict ${verdict}, promised ${done ? 'done' : 'not done'}`);
  return failures;
}

export function sameSteps(events: readonly RunEvent[], want: Record<string, Step[]>): string[] {
  const got = stepsByChild(events);
  return JSON.stringify(got) === JSON.stringify(want)
    ? []
    : [`the children's ends ${JSON.stringify(got)}, promised ${JSON.stringify(want)}`];
}
