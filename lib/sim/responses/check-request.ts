import { SIM_MODELS, type Message, type ModelInfo } from '@/lib/protocol';
import { VendorRejection, invalidRequest } from '../rejection';
import { countRequestTokens } from '../request-tokens';
import { readConversation } from './conversation';
import { parseResponsesRequest, type ResponsesRequest } from './parse-request';
import type { ResponseStore } from './response-store';

export interface CheckedResponsesRequest {
  parsed: ResponsesRequest;
  model: ModelInfo;
  system: string;
  messages: Message[];
  /** The stored chain the request continues (empty without previous_response_id). */
  chain: Record<string, unknown>[];
  promptTokens: number;
}

export const previousNotFound = (id: string): string => `Previous response with id '${id}' not found.`;

/**
 * Everything the Responses vendor checks before generating: body shape, model, output cap, the
 * stored response a `previous_response_id` names (this model's, not expired), the pairing of
 * function calls and outputs over the whole chain, reasoning items sealed to this model, and
 * the context window. Without a store (the takeover probe) every reference is unknown.
 */
export function checkResponsesRequest(options: {
  body: string;
  store?: ResponseStore;
  sealingKey?: string;
}): CheckedResponsesRequest {
  const parsed = parseResponsesRequest({ body: options.body });
  const model = SIM_MODELS.find((m) => m.id === parsed.model && m.vendor === 'sim-openai-responses');
  if (!model) {
    throw new VendorRejection({
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: `The model \`${parsed.model}\` does not exist or you do not have access to it.`,
    });
  }
  if (parsed.maxOutputTokens !== undefined && parsed.maxOutputTokens > model.maxOutputTokens) {
    throw invalidRequest(
      `Invalid 'max_output_tokens': integer above maximum value. Expected a value <= ${model.maxOutputTokens}, but got ${parsed.maxOutputTokens} instead.`,
      { code: 'integer_above_max_value', param: 'max_output_tokens' },
    );
  }
  let chain: Record<string, unknown>[] = [];
  if (parsed.previousResponseId !== undefined) {
    const stored = options.store?.get({ id: parsed.previousResponseId, model: model.id });
    if (!stored)
      throw invalidRequest(previousNotFound(parsed.previousResponseId), {
        code: 'previous_response_not_found',
        param: 'previous_response_id',
      });
    chain = stored.items;
  }
  if (parsed.input.length === 0 && chain.length === 0)
    throw invalidRequest("Missing required parameter: 'input'.", {
      code: 'missing_required_parameter',
      param: 'input',
    });
  const conversation = readConversation({
    chain,
    input: parsed.input,
    model: model.id,
    ...(options.sealingKey ? { sealingKey: options.sealingKey } : {}),
  });
  const system = [parsed.instructions, conversation.system].filter((s) => s !== '').join('\n\n');
  const promptTokens = countRequestTokens({ system, messages: conversation.messages, tools: parsed.tools });
  if (promptTokens > model.contextWindow) {
    throw invalidRequest(
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      {
        code: 'context_length_exceeded',
        param: 'input',
      },
    );
  }
  return { parsed, model, system, messages: conversation.messages, chain, promptTokens };
}
