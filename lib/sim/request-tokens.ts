import type { Message } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';
import { messageTokens, requestTokens } from '@/lib/tokens/request-tokens';
import type { PolicyRequest } from './types';

export function countMessageTokens(message: Message): number {
  return messageTokens(message, countTokens);
}

/**
 * The prompt size a simulated vendor reports as input tokens and checks against the model's
 * window: the shared request structure (lib/tokens) over the exact tokenizer. Both dialects
 * use it over the same neutral view, so a takeover keeps sizes stable.
 */
export function countRequestTokens(request: Pick<PolicyRequest, 'system' | 'messages' | 'tools'>): number {
  return requestTokens(request, countTokens);
}
