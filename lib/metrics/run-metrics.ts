import { costUsd, type EventOf, type RunEvent, type TaskVerdict } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';

/** What one run of a sweep adds up to, read off its event log alone. */
export interface RunMetrics {
  complete: boolean;
  reason: string;
  /** The scenario's own check on the final workspace (task_verdict); null when the log has none. */
  verdict: TaskVerdict | null;
  /** Each scorer of the task verdict, by id: passed, failed, or null (it could not answer); empty when the log has none. */
  scorers: Record<string, boolean | null>;
  /** Run-clock ms at terminate. */
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Every model request attempt, foreground and background. */
  attempts: number;
  /** HTTP requests sent: every attempt plus each one the vendor SDK resent on its own beneath it (sdk_retry). */
  httpRequests: number;
  failedAttempts: number;
  /** Billed for failed attempts whose output was thrown away. */
  wastedTokens: number;
  wastedUsd: number;
  /** Foreground errors no retry or context recovery absorbed: what a person using the loop would have seen. */
  errorsSeen: number;
  /**
   * What the run's sub-agents spent, apart from the run's own totals above (which count the run's own
   * calls): the sum of each child's subagent_end, every try. `runs` 0: the run started none.
   */
  subagents: { runs: number; inputTokens: number; outputTokens: number; usd: number };
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
  const fold = new MetricsFold();
  for (const event of events) fold.add(event);
  return fold.metrics();
}

/**
 * The same read one event at a time (a comparison following a live run adds each event once).
 * It keeps one small record an attempt; the streamed text only of attempts not yet answered,
 * the only ones whose output can turn out wasted.
 */
export class MetricsFold {
  private readonly attempts: Attempt[] = [];
  private current: Attempt | undefined;
  private verdict: TaskVerdict | null = null;
  private scorers: Record<string, boolean | null> = {};
  private sdkRetries = 0;
  private readonly subagents = { runs: 0, inputTokens: 0, outputTokens: 0, usd: 0 };
  private terminate: EventOf<'terminate'> | undefined;

  add(event: RunEvent): void {
    const current = this.current;
    this.terminate = undefined;
    switch (event.event) {
      case 'terminate':
        this.terminate = event;
        break;
      case 'task_verdict':
        this.verdict = event.verdict;
        this.scorers = Object.fromEntries((event.scorers ?? []).map((s) => [s.id, s.passed]));
        break;
      case 'sdk_retry':
        this.sdkRetries += 1;
        break;
      case 'subagent_end':
        this.subagents.runs += 1;
        this.subagents.inputTokens += event.input_tokens;
        this.subagents.outputTokens += event.output_tokens;
        this.subagents.usd += event.usd;
        break;
      case 'model_request':
        this.current = {
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
        this.attempts.push(this.current);
        break;
      case 'stream_open':
        if (current) current.streamed = true;
        break;
      case 'content_delta':
        if (current && current.inputTokens === null) current.outText += event.text;
        break;
      case 'model_error':
        if (current) current.failed = true;
        break;
      case 'retry_scheduled':
        if (current) current.retried = true;
        break;
      case 'context_overflow':
        // The overflow waterfall (or a reactive compact) makes room and resends the request:
        // the refusal is recovered from, not shown, as a retried error is.
        if (current && event.outcome === 'recovering') current.retried = true;
        break;
      case 'llm_call':
        if (current) {
          current.inputTokens = event.input_tokens;
          current.outText = ''; // answered: never wasted, its text is not needed
        }
        break;
      default:
        break;
    }
  }

  /** The metrics of the log so far; it must have ended with terminate. */
  metrics(): RunMetrics {
    const terminate = this.terminate;
    if (!terminate) throw new Error('a sweep run must end with terminate');
    const attempts = this.attempts;
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
      verdict: this.verdict,
      scorers: this.scorers,
      durationMs: terminate.ts,
      inputTokens: terminate.input_tokens,
      outputTokens: terminate.output_tokens,
      usd: terminate.usd_so_far,
      attempts: attempts.length,
      httpRequests: attempts.length + this.sdkRetries,
      failedAttempts,
      wastedTokens,
      wastedUsd,
      errorsSeen,
      subagents: { ...this.subagents },
    };
  }
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
