import { SIM_MODELS, type ModelInfo } from '@/lib/protocol';
import { VendorRejection } from '../rejection';
import { countRequestTokens } from '../request-tokens';
import { parseAnthropicRequest, type AnthropicRequest } from './parse-request';
import { validateAnthropicConversation } from './validate-conversation';

export interface CheckedAnthropicRequest {
  parsed: AnthropicRequest;
  model: ModelInfo;
  inputTokens: number;
}

/**
 * Everything the Messages API checks before generating: body shape, model, output cap,
 * conversation rules (signatures bound to the model that minted them), the context window.
 * Throws the vendor's rejection; the simulator and the takeover probe share it.
 */
export function checkAnthropicRequest(options: {
  body: string;
  signingKey: string;
}): CheckedAnthropicRequest {
  const parsed = parseAnthropicRequest({ body: options.body });
  const model = SIM_MODELS.find((m) => m.id === parsed.model && m.vendor === 'sim-anthropic');
  if (!model)
    throw new VendorRejection({ status: 404, type: 'not_found_error', message: `model: ${parsed.model}` });
  if (parsed.maxTokens > model.maxOutputTokens) {
    throw new VendorRejection({
      status: 400,
      type: 'invalid_request_error',
      message: `max_tokens: ${parsed.maxTokens} > ${model.maxOutputTokens}, which is the maximum allowed number of output tokens for ${model.id}`,
    });
  }
  validateAnthropicConversation({
    messages: parsed.messages,
    model: model.id,
    thinking: parsed.thinking,
    signingKey: options.signingKey,
  });
  const inputTokens = countRequestTokens(parsed);
  if (inputTokens > model.contextWindow) {
    throw new VendorRejection({
      status: 400,
      type: 'invalid_request_error',
      message: `prompt is too long: ${inputTokens} tokens > ${model.contextWindow} maximum`,
    });
  }
  return { parsed, model, inputTokens };
}
