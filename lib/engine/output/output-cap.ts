import { findModel, type RecoveryConfig, type TerminateReason, type ToolCallPart } from '@/lib/protocol';
import { parseToolArgs } from '@/lib/trajectory/parse-tool-args';
import type { Emit } from '../event-log';
import type { CallResult } from '../model-call';

/** Sent after a response cut by the output cap, when the cut output is kept. */
export const CONTINUE_AFTER_CAP =
  '[Your previous response was cut off at the output token limit. Carry on exactly where it stopped: no apology, no recap of what you already wrote.]';

/** Sent after a Partial stream when the project's continuation option is on. */
export const CONTINUE_AFTER_PARTIAL =
  '[Your previous response was cut off by a connection problem after partial output. Continue from where you stopped; do not repeat what you already said.]';

/**
 * What a request to `model` asks for: the configured cap, lowered to the model's own output
 * limit when that is smaller (the vendor would refuse more with a 400). A model Loop Lab does
 * not know is asked for the configured cap as it is.
 */
export function capForModel(configured: number, model: string): { maxTokens: number; clampedFrom?: number } {
  const limit = findModel(model)?.maxOutputTokens;
  return limit !== undefined && configured > limit
    ? { maxTokens: limit, clampedFrom: configured }
    : { maxTokens: configured };
}

/** What the loop does with a response, as far as the output cap is concerned. */
export type OutputDecision =
  | { kind: 'proceed'; truncatedRound: boolean }
  /** Escalation: drop the response and send the same request again with the raised cap. */
  | { kind: 'resend' }
  /** Keep the response and send `prompt` as the next user message. */
  | { kind: 'continue'; prompt: string }
  | { kind: 'stop'; reason: TerminateReason; message: string };

/**
 * The output cap of a run and its recovery (s11): the first response cut by the cap is
 * dropped and the same request resent with the escalated cap; later cut responses are kept
 * and continued at most `maxContinuations` times; then the run ends and says so. A round cut
 * by the cap whose tool calls do not parse has them refused (CodeSmith), and a window-exceeded
 * stop counts as a cut round. Every step is an `output_recovery` event.
 */
export class OutputCap {
  private escalated = false;
  private continuations = 0;
  private cap: number;

  constructor(private readonly options: { config: RecoveryConfig['output']; maxTokens: number; emit: Emit }) {
    this.cap = options.maxTokens;
  }

  /** The cap for the next request (raised after an escalation, for the rest of the run). */
  get maxTokens(): number {
    return this.cap;
  }

  review({ result, iteration }: { result: CallResult; iteration: number }): OutputDecision {
    const { config, emit } = this.options;
    const calls = result.message.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
    // The cap the request really asked for: the configured one, within the model's limit.
    const cap = capForModel(this.cap, result.model).maxTokens;
    const base = {
      event: 'output_recovery',
      iteration,
      stop_reason: result.stopReason,
      max_tokens: cap,
      output_tokens: result.usage.outputTokens,
    } as const;

    if (result.partial) {
      if (calls.length > 0) return { kind: 'proceed', truncatedRound: false };
      if (config.continueAfterPartial) {
        emit({
          ...base,
          action: 'continue_partial',
          kept: true,
          prompt: CONTINUE_AFTER_PARTIAL,
          reason:
            'the stream was cut after content arrived; continuing is a project choice (the seed presents what arrived and stops)',
        });
        return { kind: 'continue', prompt: CONTINUE_AFTER_PARTIAL };
      }
      emit({
        ...base,
        action: 'stop_partial',
        kept: true,
        reason:
          'the stream was cut after content arrived: what arrived is presented, not retried (no double billing)',
      });
      return {
        kind: 'stop',
        reason: 'partial_response',
        message: 'the stream was cut after content arrived; the partial response is presented',
      };
    }

    const byCap = result.stopReason === 'max_tokens';
    if (!byCap && result.stopReason !== 'context_window') return { kind: 'proceed', truncatedRound: false };

    const next = Math.min(config.escalatedMaxTokens, findModel(result.model)?.maxOutputTokens ?? Infinity);
    if (config.escalate && !this.escalated && byCap && next > cap) {
      this.escalated = true;
      emit({
        ...base,
        action: 'escalate',
        next_max_tokens: next,
        kept: false,
        reason: `cut at the ${cap}-token cap: the same request goes again with ${next}, the cut output is not kept`,
      });
      this.cap = next;
      return { kind: 'resend' };
    }

    if (calls.length > 0) {
      // Switched off: the cut calls go to the tools as they are (the repair ladder's events say what it made of them).
      if (!config.refuseCutToolCalls) return { kind: 'proceed', truncatedRound: false };
      const refused = calls
        .filter((c) => parseToolArgs(c.argsText) === undefined)
        .map((c) => ({ call_id: c.id, tool: c.name }));
      if (refused.length > 0) {
        emit({
          ...base,
          action: 'refuse_truncated',
          kept: true,
          refused,
          reason: `${refused.length} tool call${refused.length === 1 ? ' was' : 's were'} cut by the cap mid-arguments: refused, and the model is asked to resend`,
        });
      }
      return { kind: 'proceed', truncatedRound: true };
    }

    const why = byCap ? `cut at the ${cap}-token output cap` : 'cut where the context window ran out';
    if (this.continuations < config.maxContinuations) {
      this.continuations += 1;
      emit({
        ...base,
        action: 'continue',
        kept: true,
        continuation: this.continuations,
        max_continuations: config.maxContinuations,
        prompt: CONTINUE_AFTER_CAP,
        reason: `${why}: kept, and the model is asked to continue (${this.continuations} of ${config.maxContinuations})`,
      });
      return { kind: 'continue', prompt: CONTINUE_AFTER_CAP };
    }
    const message =
      config.maxContinuations > 0
        ? `still truncated after ${config.maxContinuations} continuation${config.maxContinuations === 1 ? '' : 's'}`
        : `the response was ${why}, and no continuation is configured`;
    emit({
      ...base,
      action: 'exhausted',
      kept: true,
      continuation: this.continuations,
      max_continuations: config.maxContinuations,
      reason: message,
    });
    return { kind: 'stop', reason: 'max_tokens', message };
  }
}
