import type { EventOf } from '@/lib/protocol';
import type { RunViewState } from './run-view-state';
import { addMarker, updateTurn } from './turn-updates';

/**
 * A run held by hand: the paused event opens the pause bar with its own words (where, why, what
 * step / continue / cancel do), and a resumed or tool_approval event closes it. Each is a marker.
 */
export function foldPaused(s: RunViewState, e: EventOf<'paused'>): RunViewState {
  return {
    ...s,
    pause: {
      seq: e.seq,
      ts: e.ts,
      trigger: e.trigger,
      reason: e.reason,
      at: e.at,
      next: e.next,
      clock: e.clock,
      ...(e.call ? { call: e.call } : {}),
      ...(e.timeout_ms !== undefined ? { timeoutMs: e.timeout_ms } : {}),
    },
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'control',
      label: e.trigger === 'approval' && e.call ? `waiting for approval: ${e.call.tool}` : 'paused',
      detail: `${e.reason}; ${e.at}`,
      iteration: e.iteration,
    }),
  };
}

export function foldResumed(s: RunViewState, e: EventOf<'resumed'>): RunViewState {
  const { pause: _closed, ...rest } = s;
  return {
    ...rest,
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'control',
      label: `${e.action} (by ${e.by})`,
      detail: e.next,
      iteration: e.iteration,
    }),
  };
}

export function foldToolApproval(s: RunViewState, e: EventOf<'tool_approval'>): RunViewState {
  // Several calls of a turn may wait at once: the bar closes only for the call decided.
  const stillWaiting = s.pause && !(s.pause.call && s.pause.call.id === e.call_id);
  const { pause, ...rest } = s;
  return {
    ...rest,
    ...(stillWaiting && pause ? { pause } : {}),
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'control',
      label: `${e.tool} ${e.decision} (by ${e.by})`,
      detail: `${e.reason}; ${e.next}`,
      level: e.decision === 'denied' ? 'warn' : 'info',
      iteration: e.iteration,
    }),
  };
}

/** A fork's edit of the state it starts from: a marker with what stood there before and after, in the event's words. */
export function foldForkEdit(s: RunViewState, e: EventOf<'fork_edit'>): RunViewState {
  const { target } = e;
  const edit = { seq: e.seq, by: e.by, after: String(e.after), next: e.next };
  const turns =
    target.kind === 'tool_result'
      ? updateTurn(s, target.turn, e.ts, (t) => ({
          ...t,
          toolCalls: t.toolCalls.map((c) =>
            c.callId === target.call_id ? { ...c, edit: { ...edit, isError: e.after_is_error ?? false } } : c,
          ),
        }))
      : target.kind === 'message' && target.role === 'assistant'
        ? updateTurn(s, target.turn, e.ts, (t) => ({ ...t, replyEdit: edit }))
        : s.turns;
  return {
    ...s,
    turns,
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'control',
      label: `edited: ${e.where} (by ${e.by})`,
      detail: `before: ${clip(e.before)} · after: ${clip(e.after)}; ${e.next}`,
      iteration: e.iteration,
    }),
  };
}

function clip(value: string | number): string {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}
