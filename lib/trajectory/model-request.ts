import type { Message } from '@/lib/protocol';

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One model call in neutral terms; adapters render it to the vendor's request. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /** Ask for extended thinking / reasoning where the vendor supports it. */
  thinking: boolean;
  /**
   * Mark the stable prefix for the vendor's prompt cache (Anthropic's `cache_control`
   * breakpoints). Vendors that cache on their own (OpenAI) need no field. Absent: off.
   */
  promptCaching?: boolean;
}
