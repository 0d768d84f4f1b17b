import type { BreakerState, CompactionStep, EventOf, SentMessage } from '@/lib/protocol';

/**
 * The browser's view of the context channel: one sample per request copy (the gauge), the
 * compaction steps (markers and the stepper), overflow recoveries, the breaker lamp, and
 * since when each tool result goes to the model as a stub.
 */

export interface ContextSample {
  seq: number;
  ts: number;
  iteration: number;
  tokensEst: number;
  window: number;
  threshold: number;
  logMessages: number;
  messages: readonly SentMessage[];
  /** What the vendor reported for this request, once it answered. */
  reported?: number;
  /** Of `reported`, what the vendor said it read from its prompt cache and wrote to it (absent: it reported no cache). */
  cached?: { read: number; written: number };
}

export interface CompactionView {
  seq: number;
  ts: number;
  iteration: number;
  step: CompactionStep;
  trigger: 'routine' | 'proactive' | 'overflow' | 'manual';
  ok: boolean;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  stubbed: ReadonlyArray<{ callId: string; tool: string; chars: number; iteration: number }>;
  summary?: string;
  reason: string;
  recoveryAttempt?: number;
}

export interface OverflowView {
  seq: number;
  ts: number;
  iteration: number;
  source: 'before_stream' | 'in_stream' | 'stop_reason';
  message: string;
  recoveryAttempt: number;
  budget: number;
  outcome: 'recovering' | 'exhausted';
  tokensEst: number;
  /** Set when the step's call went through after this recovery. */
  recovered?: { ts: number; tokensEst: number };
}

export interface BreakerView {
  state: BreakerState;
  failures: number;
  /** Run time at which an open breaker lets the next summary call probe. */
  reopenAt?: number;
  ts: number;
  seq: number;
  reason: string;
}

export interface ContextViewState {
  samples: readonly ContextSample[];
  steps: readonly CompactionView[];
  overflows: readonly OverflowView[];
  breaker?: BreakerView;
  /** Call id → the iteration since which its result goes to the model as a stub. */
  stubSince: Readonly<Record<string, number>>;
}

export function initialContextView(): ContextViewState {
  return { samples: [], steps: [], overflows: [], stubSince: {} };
}

export function foldContextSent(c: ContextViewState, e: EventOf<'context_sent'>): ContextViewState {
  const sample: ContextSample = {
    seq: e.seq,
    ts: e.ts,
    iteration: e.iteration,
    tokensEst: e.tokens_est,
    window: e.window,
    threshold: e.threshold,
    logMessages: e.log_messages,
    messages: e.messages,
  };
  return { ...c, samples: [...c.samples, sample] };
}

/** The vendor's count for the latest request copy (the first report after it), with its cached part. */
export function foldReported(
  c: ContextViewState,
  e: Pick<EventOf<'llm_call'>, 'input_tokens' | 'cache_read_tokens' | 'cache_write_tokens'>,
): ContextViewState {
  const last = c.samples.at(-1);
  if (!last || last.reported !== undefined) return c;
  const sample: ContextSample = { ...last, reported: e.input_tokens };
  if (e.cache_read_tokens !== undefined || e.cache_write_tokens !== undefined)
    sample.cached = { read: e.cache_read_tokens ?? 0, written: e.cache_write_tokens ?? 0 };
  return { ...c, samples: [...c.samples.slice(0, -1), sample] };
}

export function foldCompaction(c: ContextViewState, e: EventOf<'compaction'>): ContextViewState {
  const step: CompactionView = {
    seq: e.seq,
    ts: e.ts,
    iteration: e.iteration,
    step: e.step,
    trigger: e.trigger,
    ok: e.ok,
    tokensBefore: e.tokens_before,
    tokensAfter: e.tokens_after,
    messagesBefore: e.messages_before,
    messagesAfter: e.messages_after,
    stubbed: e.stubbed.map((s) => ({
      callId: s.call_id,
      tool: s.tool,
      chars: s.chars,
      iteration: s.iteration,
    })),
    ...(e.summary !== undefined ? { summary: e.summary } : {}),
    reason: e.reason,
    ...(e.recovery_attempt !== undefined ? { recoveryAttempt: e.recovery_attempt } : {}),
  };
  const stubSince = { ...c.stubSince };
  for (const s of e.stubbed) if (stubSince[s.call_id] === undefined) stubSince[s.call_id] = e.iteration;
  return { ...c, steps: [...c.steps, step], stubSince };
}

export function foldOverflow(c: ContextViewState, e: EventOf<'context_overflow'>): ContextViewState {
  const view: OverflowView = {
    seq: e.seq,
    ts: e.ts,
    iteration: e.iteration,
    source: e.source,
    message: e.message,
    recoveryAttempt: e.recovery_attempt,
    budget: e.budget,
    outcome: e.outcome,
    tokensEst: e.tokens_est,
  };
  return { ...c, overflows: [...c.overflows, view] };
}

export function foldRecovered(c: ContextViewState, e: EventOf<'context_recovered'>): ContextViewState {
  const overflows = c.overflows.map((o) =>
    o.iteration === e.iteration && !o.recovered
      ? { ...o, recovered: { ts: e.ts, tokensEst: e.tokens_est } }
      : o,
  );
  return { ...c, overflows };
}

export function foldBreaker(c: ContextViewState, e: EventOf<'breaker'>): ContextViewState {
  return {
    ...c,
    breaker: {
      state: e.state,
      failures: e.consecutive_failures,
      ...(e.reopen_at !== undefined ? { reopenAt: e.reopen_at } : {}),
      ts: e.ts,
      seq: e.seq,
      reason: e.reason,
    },
  };
}
