import type { RunEvent, TerminateReason } from '@/lib/protocol';
import { explainedSteps, explainEvent, type ExplainedEvent, type Explanation } from './explain-event';

/**
 * Checks every rendered "why" line of a run against what the run did afterwards. A why line
 * may say what happens next ("attempt 3 of 4 after 2.1 s", "the run ends", "presented", "X
 * refused the first request after the swap: 400"); each such claim is read from the text a
 * person sees and looked for in the events that follow. A takeover's lines are also held to the
 * swap they follow: "the history went as it was" only after a naive swap, "sent naively it
 * would have been refused" only after a handled one.
 * The lines are checked as rendered, so a claim written anywhere — by the engine or by a
 * renderer that guesses — is held to the log.
 */

export interface Contradiction {
  seq: number;
  event: ExplainedEvent['event'];
  why: string;
  /** What the line claimed that the log does not bear out. */
  claim: string;
}

/** Endings that can cut a plan short from outside the decision (the user, a run budget, the server). */
const INTERRUPTIONS: ReadonlySet<TerminateReason> = new Set([
  'aborted',
  'abandoned',
  'attempt_budget',
  'run_time_budget',
  'cost_budget',
  'server_restart',
  'deadlock',
  'internal_error',
  'host_overloaded',
]);

type Explain = (event: ExplainedEvent) => Explanation | undefined;

export function findContradictions(
  events: readonly RunEvent[],
  explain: Explain = explainEvent,
): Contradiction[] {
  const found: Contradiction[] = [];
  for (const event of explainedSteps(events)) {
    const x = explain(event);
    if (x) found.push(...sentenceContradictions(x.why, event, events));
  }
  return found;
}

/**
 * What one sentence shown about `event` (a why line, or another sentence a panel writes from
 * that event's fields) claims that the run's log does not bear out.
 */
export function sentenceContradictions(
  why: string,
  event: ExplainedEvent,
  events: readonly RunEvent[],
): Contradiction[] {
  const terminate = events.find(
    (e): e is Extract<RunEvent, { event: 'terminate' }> => e.event === 'terminate',
  );
  const interrupted = terminate !== undefined && INTERRUPTIONS.has(terminate.reason);
  const i = events.findIndex((e) => e.seq === event.seq);
  if (i < 0) return [];
  const found: Contradiction[] = [];
  for (const claim of claimsOf(why)) {
    const problem = check(claim, event, events.slice(0, i), events.slice(i + 1), interrupted);
    if (problem) found.push({ seq: event.seq, event: event.event, why, claim: problem });
  }
  return found;
}

type Claim =
  | { kind: 'attempt'; attempt: number }
  | { kind: 'retried' }
  | { kind: 'run_ends' }
  | { kind: 'presented' }
  | { kind: 'request_follows'; words: string }
  | { kind: 'context_channel' }
  | { kind: 'failures_left'; tool: string; left: number }
  | { kind: 'call_outcome'; outcome: 'repaired' | 'reask' }
  /** What the new vendor answered the first request after a swap. */
  | { kind: 'first_answer'; accepted: boolean; status?: number }
  /** "Sent naively it would have been …": the request sent was not the naive rendering. */
  | { kind: 'naive_counterfactual' }
  /** "The history went (was sent) as it was": the swap was naive. */
  | { kind: 'sent_as_it_was' }
  /** "… handled", "as the takeover rendered it": the swap was not naive. */
  | { kind: 'sent_handled' };

/** The claims about what comes next that a why line makes, read from its words. */
export function claimsOf(why: string): Claim[] {
  const claims: Claim[] = [];
  const attempt = /\battempt (\d+)(?: of \d+)? (?:goes out|after|at once)/i.exec(why);
  if (attempt) claims.push({ kind: 'attempt', attempt: Number(attempt[1]) });
  if (/(?<!not |never |nor |no )\bretried\b/i.test(why)) claims.push({ kind: 'retried' });
  if (/\bthe run ends\b|\bthe loop stops\b|\brun halted\b/i.test(why)) claims.push({ kind: 'run_ends' });
  if (/(?<!not )\bpresented\b/i.test(why)) claims.push({ kind: 'presented' });
  const again = /\b(goes again|asked to (?:resend|continue|go on))\b/i.exec(why);
  if (again) claims.push({ kind: 'request_follows', words: again[1]! });
  if (/\bcontext channel takes\b/i.test(why)) claims.push({ kind: 'context_channel' });
  const left = /\b(\w+) has (\d+) failures? left\b/.exec(why);
  if (left) claims.push({ kind: 'failures_left', tool: left[1]!, left: Number(left[2]) });
  if (/\bthe call goes on with the repaired arguments\b/i.test(why))
    claims.push({ kind: 'call_outcome', outcome: 'repaired' });
  if (/\bthe model is asked again with the specific error\b/i.test(why))
    claims.push({ kind: 'call_outcome', outcome: 'reask' });
  const refused = /\brefused (?:the|its) first request\b[^:]*?(?::| with) (\d{3})\b/i.exec(why);
  if (refused) claims.push({ kind: 'first_answer', accepted: false, status: Number(refused[1]) });
  if (/\baccepted (?:the|its) first request\b/i.test(why))
    claims.push({ kind: 'first_answer', accepted: true });
  if (/\bwould (?:have been refused|also have accepted)\b/i.test(why))
    claims.push({ kind: 'naive_counterfactual' });
  if (/\bhistory (?:went|sent|was sent) as it was\b/i.test(why)) claims.push({ kind: 'sent_as_it_was' });
  if (/\bfirst request to \S+, handled\b|\bthe history as the takeover rendered it\b/i.test(why))
    claims.push({ kind: 'sent_handled' });
  return claims;
}

function check(
  claim: Claim,
  event: ExplainedEvent,
  before: readonly RunEvent[],
  after: readonly RunEvent[],
  interrupted: boolean,
): string | undefined {
  const iteration = 'iteration' in event ? event.iteration : undefined;
  const background = isBackground(event, before);
  const requests = after.filter(
    (e): e is Extract<RunEvent, { event: 'model_request' }> =>
      e.event === 'model_request' && e.background === background,
  );
  switch (claim.kind) {
    case 'attempt': {
      const went = requests.some((r) => r.iteration === iteration && r.attempt === claim.attempt);
      return went || interrupted
        ? undefined
        : `attempt ${claim.attempt} goes out, but no attempt ${claim.attempt} followed`;
    }
    case 'retried': {
      if (!('attempt' in event)) return undefined;
      const retried = after.some(
        (e) => e.event === 'retry_scheduled' && e.iteration === iteration && e.attempt === event.attempt,
      );
      return retried || interrupted
        ? undefined
        : `attempt ${event.attempt} is retried, but no retry of it was scheduled`;
    }
    case 'run_ends': {
      const end = after.findIndex((e) => e.event === 'terminate');
      if (end < 0) return 'the run ends, but it has no terminate';
      const more = after
        .slice(0, end)
        .some((e) => e.event === 'model_request' && !e.background && (e.iteration ?? 0) > (iteration ?? 0));
      return more ? 'the run ends, but a later turn was requested' : undefined;
    }
    case 'presented': {
      const shown = after.some(
        (e) =>
          (e.event === 'terminate' && e.reason === 'partial_response') ||
          (e.event === 'output_recovery' && e.action === 'stop_partial'),
      );
      const itself =
        event.event === 'output_recovery' ||
        (event.event === 'terminate' && event.reason === 'partial_response');
      return shown || itself || interrupted
        ? undefined
        : 'the answer is presented, but the run did not present a Partial';
    }
    case 'request_follows':
      return requests.length > 0 || interrupted
        ? undefined
        : `the request ${claim.words}, but no request followed`;
    case 'context_channel':
      return after.some((e) => e.event === 'context_overflow')
        ? undefined
        : 'the context channel takes over, but no context_overflow followed';
    case 'failures_left': {
      if (claim.left <= 0) return undefined;
      const disabledBefore = before.some(
        (e) =>
          (e.event === 'tool_guard' && e.kind === 'disabled' && e.tool === claim.tool) ||
          (e.event === 'tool_call' && e.status === 'disabled' && e.tool === claim.tool),
      );
      return disabledBefore
        ? `${claim.tool} has ${claim.left} failures left, but it was already disabled`
        : undefined;
    }
    case 'call_outcome': {
      if (!('call_id' in event) || event.call_id === undefined) return undefined;
      const ended = after.find(
        (e): e is Extract<RunEvent, { event: 'tool_call' }> =>
          e.event === 'tool_call' && e.call_id === event.call_id,
      );
      if (!ended) return interrupted ? undefined : `the call goes on, but call ${event.call_id} never ended`;
      if (claim.outcome === 'reask')
        return ended.status === 'invalid_args'
          ? undefined
          : `the model is asked again, but the call ended ${ended.status ?? 'without a status'}`;
      return ended.repaired
        ? undefined
        : 'the call goes on with the repaired arguments, but its tool_call is not marked repaired';
    }
    case 'first_answer':
      return checkFirstAnswer(claim, event, after, interrupted);
    case 'naive_counterfactual':
      return swapInForce(event, before)?.handling.naive
        ? 'what a naive send would have met, but this swap sent the history naively: it was no counterfactual'
        : undefined;
    case 'sent_as_it_was': {
      const swap = swapInForce(event, before);
      return swap && !swap.handling.naive
        ? 'the history went as it was, but this swap was handled, not naive'
        : undefined;
    }
    case 'sent_handled':
      return swapInForce(event, before)?.handling.naive
        ? 'the history was handled, but this swap sent it naively (as it was)'
        : undefined;
    default:
      return undefined;
  }
}

/** The swap a takeover sentence is about: the event itself, or the latest swap before it. */
function swapInForce(
  event: ExplainedEvent,
  before: readonly RunEvent[],
): Extract<RunEvent, { event: 'swap' }> | undefined {
  if (event.event === 'swap') return event;
  for (let k = before.length - 1; k >= 0; k--) {
    const e = before[k]!;
    if (e.event === 'swap') return e;
  }
  return undefined;
}

/**
 * "X accepted / refused the first request after the swap": the engine's own record of that
 * request — the first foreground turn answer (`llm_call`) or error (`model_error`) after the
 * sentence's event — says the same.
 */
function checkFirstAnswer(
  claim: Extract<Claim, { kind: 'first_answer' }>,
  event: ExplainedEvent,
  after: readonly RunEvent[],
  interrupted: boolean,
): string | undefined {
  // From a swap's own sentence the first request is the one after its takeover report.
  const from = event.event === 'swap' ? after.findIndex((e) => e.event === 'takeover_report') : 0;
  const answer = after
    .slice(Math.max(from, 0))
    .find(
      (e): e is Extract<RunEvent, { event: 'llm_call' | 'model_error' }> =>
        (e.event === 'llm_call' && !e.background) || e.event === 'model_error',
    );
  const said = claim.accepted
    ? 'the first request after the swap was accepted'
    : `the first request after the swap was refused with ${claim.status}`;
  if (!answer) return interrupted ? undefined : `${said}, but no answer to it is in the log`;
  if (claim.accepted)
    return answer.event === 'llm_call'
      ? undefined
      : `${said}, but it ended in an error${answer.status !== undefined ? ` (${answer.status})` : ''}`;
  if (answer.event === 'llm_call') return `${said}, but the vendor answered it`;
  return answer.status === claim.status
    ? undefined
    : `${said}, but its error was ${answer.status ?? 'without a status'}`;
}

/** Whether the event belongs to a background call: its own account says so, or its attempt's request does. */
function isBackground(event: ExplainedEvent, before: readonly RunEvent[]): boolean {
  if (event.event === 'retry_scheduled' || event.event === 'retry_declined')
    return event.account === 'background';
  if (!('attempt' in event) || typeof event.attempt !== 'number') return false;
  const iteration = 'iteration' in event ? event.iteration : undefined;
  for (let k = before.length - 1; k >= 0; k--) {
    const e = before[k]!;
    if (e.event === 'model_request' && e.iteration === iteration && e.attempt === event.attempt)
      return e.background;
  }
  return false;
}
