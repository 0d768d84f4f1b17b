import type { EventOf, ScheduledSwap, SentBody, TakeoverHandling } from '@/lib/protocol';
import type { RunViewState, TurnView } from './run-view-state';
import { addMarker } from './turn-updates';

/** What rendering did to the history on the first request after a swap, and the naive counterfactual. */
export interface TakeoverReportView {
  seq: number;
  ts: number;
  vendor: string;
  model: string;
  dialect: string;
  converted: readonly string[];
  dropped: readonly { kind: string; detail: string }[];
  /** What went as it was although a safeguard would have changed it (naive, or a safeguard off). */
  asIs: readonly string[];
  handling: TakeoverHandling;
  naive?: EventOf<'takeover_report'>['naive'];
  /** The first request body on the new vendor, as its adapter sent it. */
  sent?: SentBody;
  /** The naive rendering of that request, the body `naive` judged. */
  naiveBody?: SentBody;
}

/** One vendor/model change mid-run and, once sent, its first request's report. */
export interface SwapView {
  seq: number;
  ts: number;
  /** The first turn on the new vendor. */
  iteration: number;
  fromVendor: string;
  fromModel: string;
  toVendor: string;
  toModel: string;
  dialect: string;
  cause: EventOf<'swap'>['cause'];
  reason?: string;
  handling: TakeoverHandling;
  contextWindow?: number;
  /** A swap made by hand: how it is recorded into the run's config, or why it is not. */
  recordedAs?: ScheduledSwap;
  notRecorded?: string;
  /** The last request body sent on the vendor left behind. */
  sentBefore?: SentBody;
  report?: TakeoverReportView;
  /** What the new vendor answered that first request, once it settled. */
  outcome?: TakeoverOutcomeView;
}

/** The new vendor's answer to the first request after a swap, as the swap controller recorded it. */
export type TakeoverOutcomeView = Omit<EventOf<'takeover_outcome'>, 'event' | 'run_id'>;

const CAUSE: Record<SwapView['cause'], string> = {
  control: 'swapped',
  scheduled: 'scheduled swap',
  fallback: 'cross-vendor fallback',
  fork: 'forked run',
};

export function foldSwap(s: RunViewState, e: EventOf<'swap'>): RunViewState {
  const swap: SwapView = {
    seq: e.seq,
    ts: e.ts,
    iteration: e.iteration,
    fromVendor: e.from_vendor,
    fromModel: e.from_model,
    toVendor: e.to_vendor,
    toModel: e.to_model,
    dialect: e.dialect,
    cause: e.cause,
    reason: e.reason,
    handling: e.handling,
    contextWindow: e.context_window,
    recordedAs: e.recorded_as,
    notRecorded: e.not_recorded,
    sentBefore: e.sent_before,
  };
  const label = `${CAUSE[e.cause]}: ${e.from_vendor}/${e.from_model} → ${e.to_vendor}/${e.to_model}`;
  const before = e.sent_before?.body;
  const recorded = e.recorded_as;
  return {
    ...s,
    // The run's config as the store keeps it: a swap made by hand is recorded into its swaps (Re-run, Open in playground).
    ...(recorded && s.config
      ? { config: { ...s.config, swaps: [...s.config.swaps, recorded].sort((a, b) => a.atTurn - b.atTurn) } }
      : {}),
    ...(before !== undefined
      ? {
          turns: withLastForegroundBody(
            s.turns,
            before,
            `the last request before the swap to ${e.to_vendor}/${e.to_model}`,
          ),
        }
      : {}),
    vendor: e.to_vendor,
    model: e.to_model,
    swaps: [...s.swaps, swap],
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'swap',
      label,
      detail: e.reason,
      iteration: e.iteration,
    }),
    reason: `${label}${e.reason ? ` (${e.reason})` : ''}`,
  };
}

/** Attaches the report to the swap it follows (the latest one). */
export function foldTakeoverReport(s: RunViewState, e: EventOf<'takeover_report'>): RunViewState {
  const last = s.swaps[s.swaps.length - 1];
  if (!last) return s;
  const report: TakeoverReportView = {
    seq: e.seq,
    ts: e.ts,
    vendor: e.vendor,
    model: e.model,
    dialect: e.dialect,
    converted: e.converted,
    dropped: e.dropped,
    asIs: e.as_is ?? [],
    handling: e.handling,
    naive: e.naive,
    sent: e.sent,
    naiveBody: e.naive_body,
  };
  const sent = e.sent?.body;
  return {
    ...s,
    swaps: [...s.swaps.slice(0, -1), { ...last, report }],
    ...(sent !== undefined
      ? {
          turns: withLastForegroundBody(
            s.turns,
            sent,
            `the first request after the swap from ${last.fromVendor}/${last.fromModel}`,
          ),
        }
      : {}),
  };
}

/** Attaches the first request's answer to the swap it follows (the latest one). */
export function foldTakeoverOutcome(s: RunViewState, e: EventOf<'takeover_outcome'>): RunViewState {
  const last = s.swaps[s.swaps.length - 1];
  if (!last) return s;
  const { event: _event, run_id: _run, ...outcome } = e;
  return { ...s, swaps: [...s.swaps.slice(0, -1), { ...last, outcome }] };
}

/**
 * Gives the latest foreground attempt the body a swap event kept for it (the last request
 * before the swap, or the first after it), so the inspector shows it on that attempt.
 */
function withLastForegroundBody(turns: readonly TurnView[], body: unknown, at: string): readonly TurnView[] {
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t]!;
    for (let i = turn.attempts.length - 1; i >= 0; i--) {
      if (turn.attempts[i]!.background) continue;
      const attempts = turn.attempts.slice();
      attempts[i] = { ...attempts[i]!, body, bodyAt: at };
      const next = turns.slice();
      next[t] = { ...turn, attempts };
      return next;
    }
  }
  return turns;
}
