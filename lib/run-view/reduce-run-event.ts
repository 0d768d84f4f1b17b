import { countModelRequest } from './request-counts';
import { foldSdkRetry } from './fold-sdk-retry';
import type { RunEvent } from '@/lib/protocol';
import type { CheckedEvent } from '@/lib/protocol/events';
import { checkNever } from '@/lib/protocol/check-never';
import { isModuleEvent } from '@/lib/mechanisms/modules/about';
import { reduceModuleEvent } from '@/lib/mechanisms/modules/view';
import { addToTotals } from '@/lib/protocol/run-totals';
import { foldBreaker, foldContextSent, foldReported } from './context-view-state';
import { foldCompactionStep, foldContextOverflow, foldContextRecovered } from './fold-context-events';
import {
  foldFaultInjected,
  foldLogLine,
  foldMechanismDecision,
  foldModelCooldown,
  foldOffRecording,
  foldResumedAfterRestart,
  foldStorageError,
} from './fold-markers';
import { terminateStatus, terminateText } from './explain/describe-run';
import { editedTestsNote, hiddenTestsNote, missingTestsNote } from './explain/describe-verdict';
import type { AttemptView, RunViewState, ToolCallView } from './run-view-state';
import { appendDelta, latestAttempt, turnLabel, updateAttempt, updateTurn } from './turn-updates';
import {
  finishToolCall,
  foldArgRepair,
  foldControl,
  foldKeepalive,
  foldLlmCall,
  foldModelRequest,
  foldOutputRecovery,
} from './fold-turn-events';
import { foldSwap, foldTakeoverOutcome, foldTakeoverReport } from './fold-takeover';
import { foldForkEdit, foldPaused, foldResumed, foldToolApproval } from './fold-pause';
import {
  foldFallback,
  foldModelError,
  foldRetryDeclined,
  foldRetryScheduled,
  foldWatchdogArmed,
  foldWatchdogFired,
} from './fold-recovery-events';

/**
 * Folds one run event into the view: pure, exhaustive, and idempotent —
 * an event whose seq was already folded (a replay after reconnect) returns the same state.
 */
export function reduceRunEvent(state: RunViewState, event: RunEvent): RunViewState {
  if (event.seq <= state.lastSeq) return state;
  const s: RunViewState = {
    ...state,
    lastSeq: event.seq,
    eventCount: state.eventCount + 1,
    clockTs: Math.max(state.clockTs, event.ts),
    runId: state.runId ?? event.run_id,
  };
  return foldBody(s, event);
}

/**
 * Folds a value read from the stream, once checked against the event union (`checked`);
 * anything the protocol does not know is counted and skipped. The check is the caller's: the
 * page loads it after its first paint (load-fold.ts), a test or the server imports it
 * (fold-raw-events.ts).
 */
export function reduceCheckedEvent(state: RunViewState, raw: unknown, checked: CheckedEvent): RunViewState {
  if (!checked.ok) {
    const seq = typeof raw === 'object' && raw !== null ? (raw as { seq?: unknown }).seq : undefined;
    if (typeof seq !== 'number') return { ...state, skippedCount: state.skippedCount + 1 };
    if (seq <= state.lastSeq) return state;
    return { ...state, lastSeq: seq, skippedCount: state.skippedCount + 1 };
  }
  return reduceRunEvent(state, checked.event);
}

function foldBody(s: RunViewState, e: RunEvent): RunViewState {
  // A mechanism module's events fold as the module says (lib/mechanisms/<name>/view.ts).
  if (isModuleEvent(e)) return reduceModuleEvent(s, e);
  switch (e.event) {
    case 'run_start':
      return {
        ...s,
        config: e.config,
        recovery: e.recovery,
        scenario: e.scenario,
        tools: e.tools,
        vendor: e.vendor,
        model: e.model,
        clock: e.clock,
        timeScale: e.time_scale,
        faults: e.config.faults,
        status: 'running',
        reason: `starting: ${e.scenario.title}`,
      };
    case 'iteration_start':
      return {
        ...s,
        turns: updateTurn(s, e.iteration, e.ts, (t) => t),
        status: 'running',
        reason: `${turnLabel(e.iteration)}: preparing the request`,
      };
    case 'model_request':
      return foldModelRequest({ ...s, ...countModelRequest(s, e) }, e);
    case 'stream_open': {
      let background = false;
      const turns = updateTurn(s, e.iteration, e.ts, (t) =>
        updateAttempt(t, e.attempt, (a) => {
          background = a.background;
          return { ...a, openTs: e.ts, ttfbMs: e.ttfb_ms, responseId: e.response_id, outcome: 'streaming' };
        }),
      );
      // A background call (title, summary) is not the turn's answer: the header says which it is.
      return {
        ...s,
        turns,
        status: 'running',
        reason: `${turnLabel(e.iteration)}: ${background ? 'background call ' : ''}streaming from ${e.model}`,
      };
    }
    case 'content_delta': {
      const turns = updateTurn(s, e.iteration, e.ts, (t) =>
        updateAttempt(t, e.attempt, (a) =>
          appendDelta(a, {
            ts: e.ts,
            index: e.index,
            kind: e.kind,
            text: e.text,
            callId: e.call_id,
            tool: e.tool,
          }),
        ),
      );
      const reason = `${turnLabel(e.iteration)}: streaming ${e.kind === 'tool_args' ? `${e.tool ?? 'tool'} arguments` : e.kind}`;
      return s.status === 'running' && s.reason === reason
        ? { ...s, turns }
        : { ...s, turns, status: 'running', reason };
    }
    case 'llm_call':
      return { ...foldLlmCall(s, e), context: e.background ? s.context : foldReported(s.context, e) };
    case 'context_sent':
      return { ...s, context: foldContextSent(s.context, e) };
    case 'compaction':
      return foldCompactionStep(s, e);
    case 'context_overflow':
      return foldContextOverflow(s, e);
    case 'context_recovered':
      return foldContextRecovered(s, e);
    case 'breaker':
      return { ...s, context: foldBreaker(s.context, e) };
    case 'model_error':
      return foldModelError(s, e);
    case 'retry_scheduled':
      return foldRetryScheduled(s, e);
    case 'retry_declined':
      return foldRetryDeclined(s, e);
    case 'watchdog_armed':
      return foldWatchdogArmed(s, e);
    case 'watchdog_fired':
      return foldWatchdogFired(s, e);
    case 'fallback':
      return foldFallback(s, e);
    case 'model_cooldown':
      return foldModelCooldown(s, e);
    case 'fault_injected':
      return foldFaultInjected(s, e);
    case 'resumed_after_restart':
      return foldResumedAfterRestart(s, e);
    case 'off_recording':
      return foldOffRecording(s, e);
    case 'control':
      return foldControl(s, e);
    case 'paused':
      return foldPaused(s, e);
    case 'resumed':
      return foldResumed(s, e);
    case 'tool_approval':
      return foldToolApproval(s, e);
    case 'fork_edit':
      return foldForkEdit(s, e);
    case 'swap':
      return foldSwap(s, e);
    case 'takeover_report':
      return foldTakeoverReport(s, e);
    case 'takeover_outcome':
      return foldTakeoverOutcome(s, e);
    case 'tool_start': {
      const call: ToolCallView = {
        key: e.call_id,
        callId: e.call_id,
        tool: e.tool,
        args: e.args,
        startTs: e.ts,
        status: 'running',
      };
      return {
        ...s,
        turns: updateTurn(s, e.iteration, e.ts, (t) => ({ ...t, toolCalls: [...t.toolCalls, call] })),
        status: 'running',
        reason: `${turnLabel(e.iteration)}: running ${e.tool}`,
      };
    }
    case 'tool_call':
      return {
        ...s,
        turns: updateTurn(s, e.iteration, e.ts, (t) => finishToolCall(t, e)),
        toolBudgets:
          e.budget_left !== undefined && s.toolBudgets[e.tool] !== e.budget_left
            ? { ...s.toolBudgets, [e.tool]: e.budget_left }
            : s.toolBudgets,
      };
    case 'arg_repair':
      return { ...s, turns: updateTurn(s, e.iteration, e.ts, (t) => foldArgRepair(t, e)) };
    case 'tool_guard': {
      const disabled = e.kind === 'disabled' && !s.disabledTools.includes(e.tool);
      return {
        ...s,
        turns: updateTurn(s, e.iteration, e.ts, (t) => ({
          ...t,
          guards: [
            ...t.guards,
            {
              ts: e.ts,
              seq: e.seq,
              tool: e.tool,
              kind: e.kind,
              reason: e.reason,
              consecutiveFailures: e.consecutive_failures,
              budgetLeft: e.budget_left,
              ...(e.next !== undefined ? { next: e.next } : {}),
            },
          ],
        })),
        disabledTools: disabled ? [...s.disabledTools, e.tool] : s.disabledTools,
        toolBudgets:
          e.budget_left !== undefined ? { ...s.toolBudgets, [e.tool]: e.budget_left } : s.toolBudgets,
        reason: e.kind === 'halt' ? `loop guard halted the run: ${e.reason}` : s.reason,
      };
    }
    case 'output_recovery':
      return foldOutputRecovery(s, e);
    case 'keepalive':
      return foldKeepalive(s, e);
    case 'sdk_retry':
      return foldSdkRetry(s, e);
    case 'forked_from':
      // A fork of a fork copies its parent's own forked_from with the turns: the run's link is
      // the first one (seq 1), and a copied one inside its range must not replace it.
      if (s.forkedFrom && e.seq <= s.forkedFrom.lastCopiedSeq) return s;
      return {
        ...s,
        forkedFrom: {
          parentRunId: e.parent_run_id,
          turn: e.turn,
          fromVendor: e.from_vendor,
          fromModel: e.from_model,
          lastCopiedSeq: e.seq + e.copied_events,
          inherited: {
            usd: e.inherited.usd,
            inputTokens: e.inherited.input_tokens,
            outputTokens: e.inherited.output_tokens,
          },
          workspace: e.workspace,
          ...(e.faults ? { faults: e.faults.why } : {}),
        },
      };
    case 'run_title':
      return { ...s, title: e.title };
    case 'mechanism_decision':
      return foldMechanismDecision(s, e);
    case 'task_verdict': {
      const testsNote = editedTestsNote(e);
      const missing = missingTestsNote(e);
      const hidden = hiddenTestsNote(e);
      return {
        ...s,
        verdict: {
          ts: e.ts,
          verdict: e.verdict,
          check: e.check,
          detail: e.detail,
          ...(testsNote ? { testsNote } : {}),
          ...(missing ? { missing } : {}),
          ...(hidden ? { hidden } : {}),
        },
      };
    }
    case 'log':
      return foldLogLine(s, e);
    case 'storage_error':
      return foldStorageError(s, e);
    case 'terminate': {
      const { pause: _over, ...ended } = s;
      return {
        ...ended,
        turns: closeOpenAttempts(s.turns, e.ts),
        status: terminateStatus(e),
        reason: terminateText(e),
        totals: addToTotals(s.totals, e),
        terminate: { ts: e.ts, seq: e.seq, reason: e.reason, complete: e.complete, message: e.message },
      };
    }
    default:
      return checkNever(e);
  }
}

/**
 * The run ended while an attempt was still open (aborted mid-stream, a budget ran out): it is
 * over too, so no card keeps a "streaming" pill after the terminate event.
 */
function closeOpenAttempts(turns: RunViewState['turns'], ts: number): RunViewState['turns'] {
  if (!turns.some((t) => t.attempts.some((a) => a.endTs === undefined))) return turns;
  return turns.map((t) =>
    t.attempts.some((a) => a.endTs === undefined)
      ? {
          ...t,
          attempts: t.attempts.map((a) =>
            a.endTs === undefined ? { ...a, endTs: ts, outcome: 'stopped' as const } : a,
          ),
        }
      : t,
  );
}

/** The attempt the header's watchdog bar follows: the latest one, if it is still open. */
export function openAttempt(state: RunViewState): AttemptView | undefined {
  if (state.terminate) return undefined;
  const latest = latestAttempt(state);
  if (!latest) return undefined;
  const a = latest.attempt;
  return a.endTs === undefined ? a : undefined;
}
