import type { Message } from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers/types';
import { estimateMessageTokens, estimateRequestTokens } from '@/lib/tokens/estimate-request-tokens';

/**
 * Sizes request copies for the context channel: the engine's estimate of system, messages
 * and tools, scaled by how the vendor's last reported input compared with the estimate of
 * that same request — so "75 % of the window" means the vendor's count, not ours.
 */
export class ContextMeter {
  private ratio = 1;

  /** Vendor's count over the estimate, from the last calibration (1 before any). */
  get scale(): number {
    return this.ratio;
  }

  constructor(private readonly options: { system: string; tools: readonly ToolSpec[] }) {}

  private raw(messages: readonly Message[]): number {
    return estimateRequestTokens({
      system: this.options.system,
      messages: messages as Message[],
      tools: this.options.tools as ToolSpec[],
    });
  }

  /** Estimated input tokens of a request carrying these messages. */
  measure(messages: readonly Message[]): number {
    return Math.round(this.raw(messages) * this.ratio);
  }

  /** Estimated tokens of one message on its own. */
  message(message: Message): number {
    return Math.round(estimateMessageTokens(message) * this.ratio);
  }

  /** Learns from the vendor's report for a request that was sent with these messages. */
  calibrate(messages: readonly Message[], reportedInputTokens: number): void {
    const raw = this.raw(messages);
    if (reportedInputTokens > 0 && raw > 0) this.ratio = reportedInputTokens / raw;
  }
}
