import { renderResponses } from '@/lib/trajectory';
import { withFormat, withResponsesFormat } from './response-format';
import type { ResponsesDialect } from './types';

/**
 * OpenAI's Responses API: the vendor stores each response, so history it holds goes by
 * reference (`previous_response_id`) and the rest as input items; reasoning comes back only as
 * the encrypted items its own model sealed, and a function_call needs its output in the same
 * conversation.
 */
export const openaiResponses: ResponsesDialect = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  wire: 'responses',
  thinkingRule:
    "takes back only encrypted reasoning items sealed by the same model; another model's is a 400 (invalid_encrypted_content)",
  render: ({ request, vendor, handling, held }) => {
    const rendered = renderResponses({
      request,
      vendor,
      ...(handling ? { handling } : {}),
      ...(held ? { held } : {}),
    });
    return withFormat(rendered, request.responseFormat, withResponsesFormat);
  },
};
