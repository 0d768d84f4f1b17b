import type { Clock, Random } from '@/lib/clock';
import type { Message } from '@/lib/protocol';

/** A tool as the simulated model sees it, whichever dialect offered it. */
export interface PolicyTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * The neutral view of one vendor request. Each dialect parses its own wire format into this,
 * so a policy decides the same way behind either vendor.
 */
export interface PolicyRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: PolicyTool[];
  maxTokens: number;
  /** Extended thinking was requested and the model can think. */
  thinking: boolean;
  /** The answer must match this JSON Schema (OpenAI Chat's response_format, Responses' text.format). */
  answerFormat?: PolicyAnswerFormat;
  /** Whether (and which) tool the model must call (Anthropic's tool_choice); absent: auto. */
  toolChoice?: PolicyToolChoice;
}

/** A JSON Schema the answer must match, as the request sent it. */
export interface PolicyAnswerFormat {
  name: string;
  schema: Record<string, unknown>;
  /** The vendor guarantees the schema (OpenAI's strict mode). */
  strict: boolean;
}

export type PolicyToolChoice = { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };

export interface PolicyToolCall {
  name: string;
  /** Raw argument text; a policy may send text that does not parse, as real models do. */
  argsText: string;
}

/** What the simulated model wants to say this turn, before the output cap cuts it. */
export interface PolicyTurn {
  thinking?: string;
  text?: string;
  /** The model declines to answer, in these words (each vendor sends a refusal its own way). */
  refusal?: string;
  toolCalls: PolicyToolCall[];
}

/** A simulated model: the next turn from the conversation so far and a seeded source. */
export type Policy = (request: PolicyRequest, random: Random) => PolicyTurn;

/** How fast a simulated stream plays, in run time. */
export interface Pacing {
  /** Wait before the first token, drawn uniformly from this range (ms). */
  firstTokenMs: [number, number];
  /** Output speed, drawn uniformly per response from this range (tokens per second). */
  tokensPerSecond: [number, number];
  /** Wait before the response headers (ms). */
  headersMs: [number, number];
}

export const DEFAULT_PACING: Pacing = {
  firstTokenMs: [250, 650],
  tokensPerSecond: [60, 100],
  headersMs: [40, 120],
};

export interface SimVendorOptions {
  clock: Clock;
  random: Random;
  policy: Policy;
  pacing?: Partial<Pacing>;
  /** When set, only this key is accepted; otherwise any non-empty key is. */
  apiKey?: string;
  /** The vendor's prompt cache (default on); off plays a vendor that caches nothing. */
  promptCache?: boolean;
  /** HMAC key for thinking signatures (Anthropic); a fixed default keeps runs reproducible. */
  signingKey?: string;
}
