import type { Message } from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers/types';
import { estimateRequestTokens } from '@/lib/tokens/estimate-request-tokens';

/**
 * Sizes request copies for the context channel: the engine's estimate of system, messages
 * and tools, scaled by how the vendor's last reported input compared with the estimate of
 * that same request — so "75 % of the window" means the vendor's count, not ours.
 */
export class ContextMeter {
  private scale = 1;

  constructor(private readonly options: { system: string; tools: readonly ToolSpec[] }) {}

  private raw(messages: readonly Message[]): number {
    return estimateRequestTokens({ system: this.options.system, messages: messages as Message[], tools: this.options.tools as ToolSpec[] });
  }

  /** Estimated input tokens of a request carrying these messages. */
  measure(messages: readonly Message[]): number {
    return Math.round(this.raw(messages) * this.scale);
  }

  /** Estimated tokens of one message on its own. */
  message(message: Message): number {
    return Math.round(estimateRequestTokens({ system: '', messages: [message] }) * this.scale);
  }

  /** Learns from the vendor's report for a request that was sent with these messages. */
  calibrate(messages: readonly Message[], reportedInputTokens: number): void {
    const raw = this.raw(messages);
    if (reportedInputTokens > 0 && raw > 0) this.scale = reportedInputTokens / raw;
  }
}
