import type { Message, Part } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';
import type { PolicyRequest } from './types';

/** Framing tokens a message costs beyond its content (role markers and separators). */
const PER_MESSAGE = 3;
const PER_TOOL = 4;

function partTokens(part: Part): number {
  switch (part.type) {
    case 'text':
      return countTokens(part.text);
    case 'thinking':
      return countTokens(part.text);
    case 'redacted_thinking':
      return countTokens(part.data);
    case 'tool_call':
      return countTokens(part.name) + countTokens(part.argsText);
    case 'tool_result':
      return countTokens(part.content) + 2;
  }
}

export function countMessageTokens(message: Message): number {
  return message.parts.reduce((sum, part) => sum + partTokens(part), PER_MESSAGE);
}

/**
 * The prompt size a simulated vendor reports as input tokens and checks against the model's
 * window. Both dialects use it over the same neutral view, so a takeover keeps sizes stable.
 */
export function countRequestTokens(request: Pick<PolicyRequest, 'system' | 'messages' | 'tools'>): number {
  let total = countTokens(request.system);
  for (const message of request.messages) total += countMessageTokens(message);
  for (const tool of request.tools) {
    total += PER_TOOL + countTokens(tool.name) + countTokens(tool.description) + countTokens(JSON.stringify(tool.inputSchema));
  }
  return total;
}
