import type { EventOf } from '@/lib/protocol';
import { addToTotals } from '@/lib/protocol/run-totals';
import type {
  AttemptView,
  CallMark,
  MarkerView,
  RunViewState,
  ToolCallView,
  TurnView,
} from './run-view-state';
import { addMarker, findAttemptIndex, turnLabel, updateAttempt, updateTurn } from './turn-updates';

/**
 * The larger folds of reduceRunEvent, one per event that reshapes a turn: a request opens an
 * attempt, llm_call settles the turn, control marks the timeline, tool_call closes a call.
 */
export function foldModelRequest(s: RunViewState, e: EventOf<'model_request'>): RunViewState {
  const attempt: AttemptView = {
    attempt: e.attempt,
    requestNo: e.request_no,
    vendor: e.vendor,
    model: e.model,
    background: e.background,
    messageCount: e.message_count,
    inputTokensEst: e.input_tokens_est,
    maxTokens: e.max_tokens,
    ...(e.max_tokens_why !== undefined ? { maxTokensWhy: e.max_tokens_why } : {}),
    body: e.body,
    startTs: e.ts,
    contentSpans: [],
    blocks: [],
    outcome: 'pending',
  };
  const turns = updateTurn(s, e.iteration, e.ts, (t) => {
    const attempts = t.attempts.slice();
    // The wait that led here: close the previous attempt's retry with the measured wait.
    const prevIndex = findAttemptIndex(t, e.attempt - 1);
    const prev = prevIndex >= 0 ? attempts[prevIndex] : undefined;
    if (prev?.retry && prev.retry.actualWaitMs === undefined && prev.background === e.background) {
      attempts[prevIndex] = { ...prev, retry: { ...prev.retry, actualWaitMs: e.ts - prev.retry.ts } };
    }
    attempts.push(attempt);
    return { ...t, attempts };
  });
  const what = e.background ? 'background call' : 'requesting';
  const retry = e.attempt > 1 ? ` (attempt ${e.attempt})` : '';
  return {
    ...s,
    turns,
    vendor: e.background ? s.vendor : e.vendor,
    model: e.background ? s.model : e.model,
    status: 'running',
    reason: `${turnLabel(e.iteration)}: ${what} ${e.model}${retry}`,
  };
}

export function foldLlmCall(s: RunViewState, e: EventOf<'llm_call'>): RunViewState {
  const result = {
    ts: e.ts,
    stopReason: e.stop_reason,
    vendorStopReason: e.vendor_stop_reason,
    inputTokens: e.input_tokens,
    outputTokens: e.output_tokens,
    usd: e.usd,
    latencyMs: e.latency_ms,
    partial: e.partial ?? false,
    vendor: e.vendor,
    model: e.model,
    message: e.message,
    purpose: e.purpose,
  };
  let background = false;
  const turns = updateTurn(s, e.iteration, e.ts, (t) => {
    const updated = updateAttempt(t, e.attempt, (a) => {
      background = a.background;
      return { ...a, endTs: a.endTs ?? e.ts, outcome: result.partial ? 'cut' : 'ok', result };
    });
    return background ? updated : { ...updated, result: { ...result, attempt: e.attempt } };
  });
  const next =
    e.stop_reason === 'tool_use'
      ? 'the model asked for tools'
      : result.partial
        ? 'kept the partial response'
        : `response ended (${e.stop_reason})`;
  return {
    ...s,
    turns,
    vendor: background ? s.vendor : (e.vendor ?? s.vendor),
    model: background ? s.model : (e.model ?? s.model),
    totals: addToTotals(s.totals, e),
    status: 'running',
    reason: `${turnLabel(e.iteration)}: ${next}`,
  };
}

const OUTPUT_STATUS: Record<EventOf<'output_recovery'>['action'], string> = {
  escalate: 'output cap hit: resending with a higher cap',
  continue: 'output cap hit: asking the model to continue',
  exhausted: 'output cap hit: no continuation left',
  refuse_truncated: 'tool calls cut by the output cap refused',
  continue_partial: 'partial response kept: asking the model to continue',
  stop_partial: 'partial response presented',
};

export function foldOutputRecovery(s: RunViewState, e: EventOf<'output_recovery'>): RunViewState {
  const step = {
    ts: e.ts,
    seq: e.seq,
    action: e.action,
    stopReason: e.stop_reason,
    maxTokens: e.max_tokens,
    nextMaxTokens: e.next_max_tokens,
    outputTokens: e.output_tokens,
    kept: e.kept,
    continuation: e.continuation,
    maxContinuations: e.max_continuations,
    prompt: e.prompt,
    refused: e.refused,
    reason: e.reason,
  };
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) => ({ ...t, outputSteps: [...t.outputSteps, step] })),
    status: e.action === 'exhausted' || e.action === 'stop_partial' ? s.status : 'recovering',
    reason: `${turnLabel(e.iteration)}: ${OUTPUT_STATUS[e.action]}`,
  };
}

export function foldControl(s: RunViewState, e: EventOf<'control'>): RunViewState {
  const labels: Record<EventOf<'control'>['action'], string> = {
    abort: 'abort requested',
    set_faults: 'faults changed',
    pause: 'paused',
    resume: 'resumed',
    compact: 'compact now',
  };
  const marker: MarkerView = {
    seq: e.seq,
    ts: e.ts,
    kind: 'control',
    label: labels[e.action],
    detail: e.detail,
    iteration: e.iteration,
  };
  const terminal = s.terminate !== undefined;
  return {
    ...s,
    markers: addMarker(s, marker),
    faults: e.action === 'set_faults' && e.faults ? e.faults : s.faults,
    reason: !terminal && (e.action === 'abort' || e.action === 'pause') ? labels[e.action] : s.reason,
  };
}

/** Keepalives go on the attempt open at the time (the one request in flight). */
export function foldKeepalive(s: RunViewState, e: EventOf<'keepalive'>): RunViewState {
  for (let t = s.turns.length - 1; t >= 0; t--) {
    const turn = s.turns[t]!;
    if (e.iteration !== undefined && turn.iteration !== e.iteration) continue;
    for (let i = turn.attempts.length - 1; i >= 0; i--) {
      const a = turn.attempts[i]!;
      if (a.endTs !== undefined) continue;
      const previous = a.keepalives?.ts ?? [];
      const ts = previous.length >= 500 ? [...previous.slice(1), e.ts] : [...previous, e.ts];
      const attempts = turn.attempts.slice();
      attempts[i] = { ...a, keepalives: { count: e.count, style: e.style, ts } };
      const turns = s.turns.slice();
      turns[t] = { ...turn, attempts, lastTs: Math.max(turn.lastTs, e.ts) };
      return { ...s, turns };
    }
    return s;
  }
  return s;
}

export function finishToolCall(t: TurnView, e: EventOf<'tool_call'>): TurnView {
  const status = e.status ?? (e.is_error ? 'error' : 'ok');
  const done = {
    status,
    result: e.result,
    resultChars: e.result_chars,
    isError: e.is_error,
    latencyMs: e.latency_ms,
    truncatedChars: e.truncated_chars,
    endTs: e.ts,
    seq: e.seq,
    ...(e.repaired ? { repaired: e.repaired, args: e.args } : {}),
  };
  let index = -1;
  for (let i = t.toolCalls.length - 1; i >= 0; i--) {
    const c = t.toolCalls[i]!;
    if (c.status !== 'running') continue;
    if (e.call_id !== undefined ? c.callId === e.call_id : c.tool === e.tool) {
      index = i;
      break;
    }
  }
  if (index === -1) {
    const call: ToolCallView = {
      key: e.call_id ?? `seq-${e.seq}`,
      callId: e.call_id,
      tool: e.tool,
      args: e.args,
      startTs: Math.max(0, e.ts - e.latency_ms),
      ...done,
    };
    return { ...t, toolCalls: [...t.toolCalls, call] };
  }
  const toolCalls = t.toolCalls.slice();
  toolCalls[index] = { ...toolCalls[index]!, ...done };
  return { ...t, toolCalls };
}

/** A rung of the argument repair ladder: noted on the running call it repaired. */
export function foldArgRepair(t: TurnView, e: EventOf<'arg_repair'>): TurnView {
  const index = t.toolCalls.findLastIndex((c) => c.callId === e.call_id);
  if (index === -1) return t;
  const repair = {
    seq: e.seq,
    ts: e.ts,
    rung: e.rung,
    changes: e.changes,
    before: e.before,
    after: e.after,
    next: e.next,
    why: e.why,
  };
  const toolCalls = t.toolCalls.slice();
  const call = toolCalls[index]!;
  toolCalls[index] = { ...call, repairs: [...(call.repairs ?? []), repair] };
  return { ...t, toolCalls };
}

/** A mechanism's mark on some of the turn's calls (each module's view.ts makes its own). */
export function addCallMark(t: TurnView, mark: CallMark): TurnView {
  return { ...t, callMarks: [...(t.callMarks ?? []), mark] };
}

/** The marks on one call, in log order. */
export function marksOf(turn: TurnView, callId: string | undefined): readonly CallMark[] {
  if (callId === undefined || !turn.callMarks) return NO_MARKS;
  return turn.callMarks.filter((m) => m.callIds.includes(callId));
}

const NO_MARKS: readonly CallMark[] = [];
