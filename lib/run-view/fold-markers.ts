/** The run-view folds of events that are a mark on the timeline with their own reason. */
import type { EventOf } from '@/lib/protocol';
import type { MarkerView, RunViewState } from './run-view-state';
import { addMarker, turnLabel } from './turn-updates';

/** The view with the event as a mark on the timeline: its seq, time and turn, and what the mark says. */
function withMark(
  s: RunViewState,
  e: { seq: number; ts: number; iteration?: number },
  mark: Pick<MarkerView, 'kind' | 'label' | 'detail' | 'level'>,
): RunViewState {
  return { ...s, markers: addMarker(s, { seq: e.seq, ts: e.ts, ...mark, iteration: e.iteration }) };
}

/** The retry policy's cooldown: a marker with the engine's own reason (the model change, if any, is a fallback event). */
export function foldModelCooldown(s: RunViewState, e: EventOf<'model_cooldown'>): RunViewState {
  return withMark(s, e, {
    kind: 'log',
    label: `model cooldown (${e.phase}): ${e.model}`,
    detail: e.reason,
    level: e.phase === 'start' ? 'warn' : 'info',
  });
}

/** A fault the plan injected: a mark on the timeline with its rule. */
export function foldFaultInjected(s: RunViewState, e: EventOf<'fault_injected'>): RunViewState {
  return withMark(s, e, {
    kind: 'fault',
    label: e.label,
    detail: `rule ${e.rule_id}: ${e.action}${e.request_no !== undefined ? ` (request ${e.request_no})` : ''}`,
  });
}

/** A run a restart resumed: a mark at the turn it went on from, with its reason. */
export function foldResumedAfterRestart(s: RunViewState, e: EventOf<'resumed_after_restart'>): RunViewState {
  return withMark(s, e, {
    kind: 'log',
    label: `resumed after restart at turn ${e.at_turn}`,
    detail: `${e.reason}; ${e.next}`,
    level: 'info',
  });
}

/** A request that left its recording: a mark with what differs and why. */
export function foldOffRecording(s: RunViewState, e: EventOf<'off_recording'>): RunViewState {
  return withMark(s, e, {
    kind: 'log',
    label: `off the recording at request ${e.request_no}: ${e.differs}`,
    detail: e.why,
    level: e.next === 'stop' ? 'error' : 'warn',
  });
}

/** A strategy's decision (the mechanism port): a mark on the timeline, with its reason. */
export function foldMechanismDecision(s: RunViewState, e: EventOf<'mechanism_decision'>): RunViewState {
  return {
    ...withMark(s, e, {
      kind: 'log',
      label: `${e.mechanism}: ${e.why}`,
      detail: `${e.hook}: ${e.decision} → ${e.next}`,
      level: 'info',
    }),
    reason: `${turnLabel(e.iteration)}: ${e.mechanism} decided ${e.decision.replace(/_/g, ' ')}`,
    ...(e.mechanism.startsWith('mcp:') ? { mcpServers: foldMcpServer(s, e) } : {}),
  };
}

/** A log line: a mark on the timeline; a note about a swap kept for the swap's card. */
export function foldLogLine(s: RunViewState, e: EventOf<'log'>): RunViewState {
  return {
    ...withMark(s, e, {
      kind: 'log',
      label: e.message,
      level: e.level,
    }),
    ...(e.about === 'swap' && !s.swapNotes.some((n) => n.seq === e.seq)
      ? { swapNotes: [...s.swapNotes, { seq: e.seq, ts: e.ts, message: e.message }] }
      : {}),
  };
}

/** An event the store could not keep: a mark saying the run went on without it. */
export function foldStorageError(s: RunViewState, e: EventOf<'storage_error'>): RunViewState {
  return withMark(s, e, {
    kind: 'storage',
    label: `a ${e.replaces} event could not be stored; the run went on without it`,
    detail: e.message,
    level: 'error',
  });
}

/** An MCP server's line in the run header: its client's last decision about it, as written. */
function foldMcpServer(
  s: RunViewState,
  e: EventOf<'mechanism_decision'>,
): NonNullable<RunViewState['mcpServers']> {
  const name = e.mechanism.slice('mcp:'.length);
  const before = s.mcpServers?.[name];
  return {
    ...s.mcpServers,
    [name]: {
      decision: e.decision,
      next: e.next,
      why: e.why,
      seq: e.seq,
      decisions: (before?.decisions ?? 0) + 1,
    },
  };
}
