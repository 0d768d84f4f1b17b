import {
  foldTotals,
  type EventOf,
  type Message,
  type RunEvent,
  type ToolCallPart,
  type ToolResultPart,
} from '@/lib/protocol';
import { reapplyLoggedEdit } from './fork-edits';

/** One message of the rebuilt trajectory and the turn that added it (0: the task). */
export interface LoggedMessage {
  message: Message;
  iteration: number;
}

/** The trajectory of a run up to and including one turn, as its log recorded it. */
export interface LoggedTrajectory {
  messages: LoggedMessage[];
  /** Events of turns 1..k (run_start, the run's end and aborts left out), in log order. */
  events: RunEvent[];
  /** The vendor and model that answered turn k (the one in force at the end of it). */
  vendor: string;
  model: string;
  /** What turns 1..k cost (every llm_call among the events, background ones too). */
  totals: { usd: number; inputTokens: number; outputTokens: number };
}

export type TrajectoryResult = { ok: true; trajectory: LoggedTrajectory } | { ok: false; problem: string };

/** Events that close a run or belong to its end: never part of a turn that can be continued. */
const ENDING = new Set<RunEvent['event']>(['run_start', 'terminate', 'task_verdict', 'run_title']);

/**
 * Rebuilds the neutral messages a run's loop held after turn `atTurn`, from its event log
 * alone (so an imported run forks the same as a live one): the task, each turn's kept reply
 * (the last foreground llm_call; none after an escalation, whose cut reply is not kept), the
 * continuation prompt an output step added, and the tool results as the model received them.
 * A turn can be continued only when the history ends with a user message and every tool call
 * has its result; otherwise the problem says why.
 */
export function trajectoryFromLog(events: readonly RunEvent[], atTurn: number): TrajectoryResult {
  const start = events.find((e): e is EventOf<'run_start'> => e.event === 'run_start');
  if (!start) return { ok: false, problem: 'the log has no run_start event, so the task is unknown' };
  const turns = new Set<number>();
  for (const e of events) if (e.event === 'iteration_start') turns.add(e.iteration);
  if (!turns.has(atTurn)) {
    const last = Math.max(0, ...turns);
    return {
      ok: false,
      problem:
        last === 0
          ? 'the run has no turns to fork from'
          : `turn ${atTurn} is out of range: the run has turns 1 to ${last}`,
    };
  }

  const cut = events.findIndex((e) => (ENDING.has(e.event) ? e.event !== 'run_start' : turnOf(e) > atTurn));
  const copied = events
    .slice(0, cut < 0 ? events.length : cut)
    .filter((e) => e.event !== 'run_start' && !(e.event === 'control' && e.action === 'abort'));

  const messages: LoggedMessage[] = [
    { message: { role: 'user', parts: [{ type: 'text', text: start.scenario.task }] }, iteration: 0 },
  ];
  let vendor = start.vendor;
  let model = start.model;
  for (let turn = 1; turn <= atTurn; turn++) {
    const ofTurn = copied.filter((e) => turnOf(e) === turn);
    const added = addTurn(turn, ofTurn);
    if (added) return added;
    // A fork of this log's turn starts from the state as edited: the edits its own fork made apply again.
    for (const e of ofTurn) {
      if (e.event !== 'fork_edit') continue;
      const edited = reapplyLoggedEdit(messages, e);
      if (!edited.ok)
        return { ok: false, problem: `turn ${turn}: a logged edit no longer applies (${edited.problem})` };
      messages.splice(0, messages.length, ...edited.messages);
    }
  }

  /** Adds the messages of one turn; a problem when it cannot be continued from. */
  function addTurn(turn: number, ofTurn: readonly RunEvent[]): { ok: false; problem: string } | undefined {
    const replies = ofTurn.filter((e): e is EventOf<'llm_call'> => e.event === 'llm_call' && !e.background);
    const steps = ofTurn.filter((e): e is EventOf<'output_recovery'> => e.event === 'output_recovery');
    const reply = replies.at(-1);
    if (!reply) {
      if (turn === atTurn)
        return {
          ok: false,
          problem: `turn ${turn} has no model reply in the log (it failed or was cut off)`,
        };
      return undefined; // a turn whose call failed and was retried as the next turn leaves no message
    }
    vendor = reply.vendor ?? vendor;
    model = reply.model ?? model;
    if (steps.some((s) => s.action === 'escalate')) return undefined; // the cut reply was dropped; the same request went again
    if (!reply.message)
      return {
        ok: false,
        problem: `turn ${turn}'s reply was not recorded in the log (an import without messages?)`,
      };
    if (reply.message.parts.length > 0) messages.push({ message: reply.message, iteration: turn });
    const prompt = steps.find(
      (s) => (s.action === 'continue' || s.action === 'continue_partial') && s.prompt !== undefined,
    )?.prompt;
    if (prompt !== undefined) {
      messages.push({ message: { role: 'user', parts: [{ type: 'text', text: prompt }] }, iteration: turn });
      return undefined;
    }
    const calls = reply.message.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
    if (calls.length === 0) return undefined;
    const results = resultsOf(ofTurn, calls);
    if (typeof results === 'string') return { ok: false, problem: `turn ${turn}: ${results}` };
    messages.push({ message: { role: 'user', parts: results }, iteration: turn });
    return undefined;
  }

  if (messages.at(-1)!.message.role !== 'user') {
    return {
      ok: false,
      problem: `turn ${atTurn} ends the conversation (the model's final answer): there is nothing to continue from it`,
    };
  }
  // The one fold (lib/protocol/run-totals): the copied turns are a prefix of the parent's log,
  // so the last copied call's usd_so_far is what they cost.
  const totals = { ...foldTotals(copied) };
  return { ok: true, trajectory: { messages, events: copied, vendor, model, totals } };
}

/** The turns of a log a fork can start after (ascending). */
export function forkableTurns(events: readonly RunEvent[]): number[] {
  const turns = [
    ...new Set(events.flatMap((e) => (e.event === 'iteration_start' ? [e.iteration] : []))),
  ].sort((a, b) => a - b);
  return turns.filter((turn) => trajectoryFromLog(events, turn).ok);
}

function turnOf(event: RunEvent): number {
  return 'iteration' in event && typeof event.iteration === 'number' ? event.iteration : 0;
}

/** The results the model received for this turn's calls, in call order; a string says what is missing. */
function resultsOf(ofTurn: readonly RunEvent[], calls: readonly ToolCallPart[]): ToolResultPart[] | string {
  const byId = new Map<string, EventOf<'tool_call'>>();
  for (const e of ofTurn) if (e.event === 'tool_call' && e.call_id !== undefined) byId.set(e.call_id, e);
  const results: ToolResultPart[] = [];
  for (const call of calls) {
    const logged = byId.get(call.id);
    if (!logged)
      return `tool call ${call.id} (${call.name}) has no result in the log (the run stopped before it ran)`;
    if (logged.result === undefined)
      return `the result of tool call ${call.id} (${call.name}) was not recorded in the log`;
    results.push({ type: 'tool_result', callId: call.id, content: logged.result, isError: logged.is_error });
  }
  return results;
}
