import { formatMs } from '@/lib/protocol/format-duration';
import type { ToolCallPart } from '@/lib/protocol';
import { similarity } from '../similarity';

/** The texts the executor answers with: each says what happened and what to do instead. */

export function unknownTool(name: string, names: string[]): string {
  const near = names.map((n) => ({ n, s: similarity(name.toLowerCase(), n) })).sort((a, b) => b.s - a.s)[0];
  const hint = near && near.s >= 0.5 ? ` Did you mean ${near.n}?` : '';
  return `Error: there is no tool named "${name}". Available tools: ${names.join(', ')}.${hint} Call one of those.`;
}

export function refusedTruncated(call: ToolCallPart): string {
  return (
    `Error: the call to ${call.name} was not run: your previous response hit the output length limit and its arguments ` +
    `were cut off (${call.argsText.length} chars received, not valid JSON). Resend the call with complete arguments; ` +
    'keep them short (edit a small region, or split a large write into several edits).'
  );
}

export function disabled(name: string, failures: number): string {
  return `Error: ${name} is disabled for the rest of this run after ${failures} ${failures === 1 ? 'failure' : 'failures'}. Use a different tool or approach.`;
}

/** "1 time", "3 times": a count people read. */
export function timesWord(n: number): string {
  return `${n} ${n === 1 ? 'time' : 'times'}`;
}

export function disabledNow(name: string, failures: number): string {
  return `${name} has now failed ${timesWord(failures)} and is disabled for the rest of this run. Use a different tool or approach.`;
}

export function shortCircuit(name: string): string {
  return (
    `Error: you already made this exact ${name} call and it failed; it was not run again. ` +
    'Do not repeat it: change the arguments or try another approach.'
  );
}

export function blockedReason(name: string, count: number): string {
  return `call #${count} of ${name} with the same arguments`;
}

export function blocked(name: string, count: number): string {
  return (
    `Error: blocked — this is call #${count} of ${name} with exactly the same arguments, which looks like a loop. ` +
    'The answer will not change; use what you already have, or change the arguments or approach.'
  );
}

export function warning(name: string, consecutive: number, haltAt: number): string {
  return (
    `Warning: ${name} has failed ${timesWord(consecutive)} in a row; the run stops at ${haltAt}. ` +
    'Step back: re-read the errors, check names and arguments, or try a different tool.'
  );
}

/** Why the check rate refused a call (the guard's reason). */
export function rateLimitedReason(name: string, count: number, max: number, windowMs: number): string {
  return `${name} ran ${timesWord(count)} in the last ${formatMs(windowMs)} of run time (limit ${max} per ${formatMs(windowMs)})`;
}

/** What happens next after a refusal (the guard's next). */
export function rateLimitedNext(name: string, nextAt: number, waitMs: number): string {
  return `refused without running; ${name} may run again at ${formatMs(nextAt)} of run time (in ${formatMs(waitMs)})`;
}

export function rateLimited(name: string, count: number, windowMs: number, waitMs: number): string {
  return (
    `Error: ${name} was not run: this run already ran it ${timesWord(count)} in the last ${formatMs(windowMs)} of run time, ` +
    `the most it may. It can run again in ${formatMs(waitMs)} of run time. Make the changes you need first, then check once.`
  );
}
