import type { Message, Part } from '@/lib/protocol';

/**
 * The one way Loop Lab sizes a request: the system prompt, every message part plus framing
 * per message, and every tool's name, description and schema. The simulated vendors run it
 * with the exact tokenizer (what they report and check against the window); the engine runs
 * it with the fast estimate (what it expects before sending). Same structure, so the gap
 * between "estimated" and "reported" is only the tokenizer's.
 */
export type TextCounter = (text: string) => number;

export interface SizedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface SizedRequest {
  system: string;
  messages: readonly Message[];
  tools?: readonly SizedTool[];
}

/** Framing a message costs beyond its content (role markers and separators). */
export const PER_MESSAGE_TOKENS = 3;
/** Framing a tool definition costs beyond its text. */
export const PER_TOOL_TOKENS = 4;
/** Framing a tool result costs beyond its content. */
const PER_TOOL_RESULT = 2;

export function partTokens(part: Part, count: TextCounter): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return count(part.text);
    case 'redacted_thinking':
      return count(part.data);
    case 'tool_call':
      return count(part.name) + count(part.argsText);
    case 'tool_result':
      return count(part.content) + PER_TOOL_RESULT;
  }
}

export function messageTokens(message: Message, count: TextCounter): number {
  let total = PER_MESSAGE_TOKENS;
  for (const part of message.parts) total += partTokens(part, count);
  return total;
}

export function toolTokens(tool: SizedTool, count: TextCounter): number {
  return (
    PER_TOOL_TOKENS + count(tool.name) + count(tool.description) + count(JSON.stringify(tool.inputSchema))
  );
}

export function requestTokens(request: SizedRequest, count: TextCounter): number {
  let total = count(request.system);
  for (const message of request.messages) total += messageTokens(message, count);
  for (const tool of request.tools ?? []) total += toolTokens(tool, count);
  return total;
}
