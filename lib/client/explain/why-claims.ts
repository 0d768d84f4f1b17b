import type { RunEvent, TerminateReason } from '@/lib/protocol';
import { explainedSteps, explainEvent, type ExplainedEvent, type Explanation } from './explain-event';

/**
 * Checks every rendered "why" line of a run against what the run did afterwards. A why line
 * may say what happens next ("attempt 3 of 4 after 2.1 s", "the run ends", "presented"); each
 * such claim is read from the text a person sees and looked for in the events that follow.
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

export function findContradictions(events: readonly RunEvent[], explain: Explain = explainEvent): Contradiction[] {
  const found: Contradiction[] = [];
  const terminate = events.find((e): e is Extract<RunEvent, { event: 'terminate' }> => e.event === 'terminate');
  const interrupted = terminate !== undefined && INTERRUPTIONS.has(terminate.reason);
  const indexOf = new Map(events.map((e, i) => [e.seq, i]));
  for (const event of explainedSteps(events)) {
    const x = explain(event);
    if (!x) continue;
    const i = indexOf.get(event.seq)!;
    const after = events.slice(i + 1);
    const say = (claim: string) => found.push({ seq: event.seq, event: event.event, why: x.why, claim });
    for (const claim of claimsOf(x.why)) {
      const problem = check(claim, event, events.slice(0, i), after, interrupted);
      if (problem) say(problem);
    }
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
  | { kind: 'call_outcome'; outcome: 'repaired' | 'reask' };

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
  if (/\bthe call goes on with the repaired arguments\b/i.test(why)) claims.push({ kind: 'call_outcome', outcome: 'repaired' });
  if (/\bthe model is asked again with the specific error\b/i.test(why)) claims.push({ kind: 'call_outcome', outcome: 'reask' });
  return claims;
}

function check(claim: Claim, event: ExplainedEvent, before: readonly RunEvent[], after: readonly RunEvent[], interrupted: boolean): string | undefined {
  const iteration = 'iteration' in event ? event.iteration : undefined;
  const background = isBackground(event, before);
  const requests = after.filter((e): e is Extract<RunEvent, { event: 'model_request' }> => e.event === 'model_request' && e.background === background);
  switch (claim.kind) {
    case 'attempt': {
      const went = requests.some((r) => r.iteration === iteration && r.attempt === claim.attempt);
      return went || interrupted ? undefined : `attempt ${claim.attempt} goes out, but no attempt ${claim.attempt} followed`;
    }
    case 'retried': {
      if (!('attempt' in event)) return undefined;
      const retried = after.some((e) => e.event === 'retry_scheduled' && e.iteration === iteration && e.attempt === event.attempt);
      return retried || interrupted ? undefined : `attempt ${event.attempt} is retried, but no retry of it was scheduled`;
    }
    case 'run_ends': {
      const end = after.findIndex((e) => e.event === 'terminate');
      if (end < 0) return 'the run ends, but it has no terminate';
      const more = after.slice(0, end).some((e) => e.event === 'model_request' && !e.background && (e.iteration ?? 0) > (iteration ?? 0));
      return more ? 'the run ends, but a later turn was requested' : undefined;
    }
    case 'presented': {
      const shown = after.some(
        (e) => (e.event === 'terminate' && e.reason === 'partial_response') || (e.event === 'output_recovery' && e.action === 'stop_partial'),
      );
      const itself = event.event === 'output_recovery' || (event.event === 'terminate' && event.reason === 'partial_response');
      return shown || itself || interrupted ? undefined : 'the answer is presented, but the run did not present a Partial';
    }
    case 'request_follows':
      return requests.length > 0 || interrupted ? undefined : `the request ${claim.words}, but no request followed`;
    case 'context_channel':
      return after.some((e) => e.event === 'context_overflow') ? undefined : 'the context channel takes over, but no context_overflow followed';
    case 'failures_left': {
      if (claim.left <= 0) return undefined;
      const disabledBefore = before.some(
        (e) =>
          (e.event === 'tool_guard' && e.kind === 'disabled' && e.tool === claim.tool) ||
          (e.event === 'tool_call' && e.status === 'disabled' && e.tool === claim.tool),
      );
      return disabledBefore ? `${claim.tool} has ${claim.left} failures left, but it was already disabled` : undefined;
    }
    case 'call_outcome': {
      if (!('call_id' in event) || event.call_id === undefined) return undefined;
      const ended = after.find((e): e is Extract<RunEvent, { event: 'tool_call' }> => e.event === 'tool_call' && e.call_id === event.call_id);
      if (!ended) return interrupted ? undefined : `the call goes on, but call ${event.call_id} never ended`;
      if (claim.outcome === 'reask')
        return ended.status === 'invalid_args' ? undefined : `the model is asked again, but the call ended ${ended.status ?? 'without a status'}`;
      return ended.repaired ? undefined : 'the call goes on with the repaired arguments, but its tool_call is not marked repaired';
    }
    default:
      return undefined;
  }
}

/** Whether the event belongs to a background call: its own account says so, or its attempt's request does. */
function isBackground(event: ExplainedEvent, before: readonly RunEvent[]): boolean {
  if (event.event === 'retry_scheduled' || event.event === 'retry_declined') return event.account === 'background';
  if (!('attempt' in event) || typeof event.attempt !== 'number') return false;
  const iteration = 'iteration' in event ? event.iteration : undefined;
  for (let k = before.length - 1; k >= 0; k--) {
    const e = before[k]!;
    if (e.event === 'model_request' && e.iteration === iteration && e.attempt === event.attempt) return e.background;
  }
  return false;
}
