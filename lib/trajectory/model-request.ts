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
  /**
   * The answer must match this JSON Schema; each dialect sends it the way its API supports
   * (lib/dialects). Absent: a free-text answer.
   */
  responseFormat?: ResponseFormat;
}

/** A JSON Schema the model's answer must match, as a request carries it. */
export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
  /** OpenAI's strict mode (the vendor guarantees the schema). */
  strict: boolean;
}
