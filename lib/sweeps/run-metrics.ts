import { costUsd, type RunEvent, type TaskVerdict } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';

/** What one run of a sweep adds up to, read off its event log alone. */
export interface RunMetrics {
  complete: boolean;
  reason: string;
  /** The scenario's own check on the final workspace (task_verdict); null when the log has none. */
  verdict: TaskVerdict | null;
  /** Run-clock ms at terminate. */
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Every model request attempt, foreground and background. */
  attempts: number;
  failedAttempts: number;
  /** Billed for failed attempts whose output was thrown away. */
  wastedTokens: number;
  wastedUsd: number;
  /** Foreground errors no retry absorbed: what a person using the loop would have seen. */
  errorsSeen: number;
}

interface Attempt {
  iteration: number;
  background: boolean;
  model: string;
  estimate: number;
  streamed: boolean;
  outText: string;
  failed: boolean;
  retried: boolean;
  /** An llm_call closed it: its usage is in the run's totals (a Partial keeps what came). */
  inputTokens: number | null;
}

/**
 * Reads a finished run's log into sweep metrics. A failed attempt wastes tokens only if the
 * vendor began answering (an HTTP 429/529 before the stream costs nothing): its input, which
 * is the input the retried request was billed for, plus the output that streamed before the
 * failure, counted with the one tokenizer.
 */
export function runMetrics(events: readonly RunEvent[]): RunMetrics {
  const attempts: Attempt[] = [];
  let current: Attempt | undefined;
  let verdict: TaskVerdict | null = null;
  for (const event of events) {
    switch (event.event) {
      case 'task_verdict':
        verdict = event.verdict;
        break;
      case 'model_request':
        current = {
          iteration: event.iteration,
          background: event.background,
          model: event.model,
          estimate: event.input_tokens_est,
          streamed: false,
          outText: '',
          failed: false,
          retried: false,
          inputTokens: null,
        };
        attempts.push(current);
        break;
      case 'stream_open':
        if (current) current.streamed = true;
        break;
      case 'content_delta':
        if (current) current.outText += event.text;
        break;
      case 'model_error':
        if (current) current.failed = true;
        break;
      case 'retry_scheduled':
        if (current) current.retried = true;
        break;
      case 'llm_call':
        if (current) current.inputTokens = event.input_tokens;
        break;
      default:
        break;
    }
  }

  const terminate = events.at(-1);
  if (terminate?.event !== 'terminate') throw new Error('a sweep run must end with terminate');
  let wastedTokens = 0;
  let wastedUsd = 0;
  let failedAttempts = 0;
  let errorsSeen = 0;
  attempts.forEach((attempt, index) => {
    if (!attempt.failed || attempt.inputTokens !== null) return;
    failedAttempts += 1;
    if (!attempt.retried && !attempt.background) errorsSeen += 1;
    if (!attempt.streamed) return;
    const input = billedInput(attempts, index);
    const output = countTokens(attempt.outText);
    wastedTokens += input + output;
    wastedUsd += costUsd(attempt.model, input, output);
  });

  return {
    complete: terminate.complete,
    reason: terminate.reason,
    verdict,
    durationMs: terminate.ts,
    inputTokens: terminate.input_tokens,
    outputTokens: terminate.output_tokens,
    usd: terminate.usd_so_far,
    attempts: attempts.length,
    failedAttempts,
    wastedTokens,
    wastedUsd,
    errorsSeen,
  };
}

/** The vendor-reported input of the same request retried (same iteration), else the engine's estimate. */
function billedInput(attempts: readonly Attempt[], index: number): number {
  const failed = attempts[index]!;
  for (let i = index + 1; i < attempts.length; i += 1) {
    const later = attempts[i]!;
    if (later.iteration !== failed.iteration || later.background !== failed.background) break;
    if (later.inputTokens !== null) return later.inputTokens;
  }
  return failed.estimate;
}
