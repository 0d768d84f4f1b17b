import { renderOpenAI, type RenderedOpenAI } from '@/lib/trajectory';
import { withChatFormat, withFormat } from './response-format';
import type { RenderOptions } from './types';

/**
 * OpenAI's chat format with no reasoning sent back, the answer format (if any) as
 * `response_format`: what the two plain chat dialects render. They differ only in the output
 * cap's field (`legacyMaxTokens`: the older `max_tokens`, else `max_completion_tokens`).
 */
export function renderChat(
  { request, vendor, handling }: RenderOptions,
  { legacyMaxTokens }: { legacyMaxTokens: boolean },
): RenderedOpenAI {
  const rendered = renderOpenAI({
    request,
    vendor,
    reasoningContent: false,
    legacyMaxTokens,
    ...(handling ? { handling } : {}),
  });
  return withFormat(rendered, request.responseFormat, withChatFormat);
}
