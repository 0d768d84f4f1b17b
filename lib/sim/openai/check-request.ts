import { SIM_MODELS, type ModelInfo } from '@/lib/protocol';
import { VendorRejection, invalidRequest, isRecord } from '../rejection';
import { countRequestTokens } from '../request-tokens';
import { parseOpenAIRequest, type OpenAIRequest } from './parse-request';
import { validateOpenAIConversation } from './validate-conversation';

/** Which vendor the OpenAI-dialect simulator plays: OpenAI itself, or a DeepSeek-style reasoning endpoint. */
export type OpenAIFlavor = 'openai' | 'deepseek';

export interface CheckedOpenAIRequest {
  parsed: OpenAIRequest;
  model: ModelInfo;
  promptTokens: number;
}

/** DeepSeek's thinking-mode rule, in its own words. */
export const REASONING_CONTENT_MISSING =
  'The reasoning_content in the thinking mode must be passed back to the API.';

/**
 * Everything the vendor checks before generating: body shape, model, output cap, the
 * conversation rules, the context window. Throws the vendor's rejection; the simulator and
 * the takeover probe (which validates a rendering without generating) share it.
 */
export function checkOpenAIRequest(options: { body: string; flavor: OpenAIFlavor }): CheckedOpenAIRequest {
  const { flavor } = options;
  const vendor = flavor === 'deepseek' ? 'sim-deepseek' : 'sim-openai';
  const parsed = parseOpenAIRequest({ body: options.body });
  const model = SIM_MODELS.find((m) => m.id === parsed.model && m.vendor === vendor);
  if (!model) {
    if (flavor === 'deepseek') throw invalidRequest('Model Not Exist', { code: 'invalid_request_error' });
    throw new VendorRejection({
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: `The model \`${parsed.model}\` does not exist or you do not have access to it.`,
    });
  }
  if (parsed.maxTokens !== undefined && parsed.maxTokens > model.maxOutputTokens) {
    throw invalidRequest(
      `${parsed.maxTokensField} is too large: ${parsed.maxTokens}. This model supports at most ${model.maxOutputTokens} completion tokens, whereas you provided ${parsed.maxTokens}.`,
      { code: 'invalid_value', param: parsed.maxTokensField },
    );
  }
  validateOpenAIConversation({ wireMessages: parsed.wireMessages });
  if (flavor === 'deepseek' && model.reasoning) checkReasoningContent(parsed.wireMessages);
  const promptTokens = countRequestTokens(parsed);
  if (promptTokens > model.contextWindow) {
    throw invalidRequest(
      `This model's maximum context length is ${model.contextWindow} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
      { code: 'context_length_exceeded', param: 'messages' },
    );
  }
  return { parsed, model, promptTokens };
}

/**
 * In thinking mode every assistant turn that made tool calls must bring its
 * `reasoning_content` back, even an empty one; without it the request is a 400.
 */
function checkReasoningContent(wireMessages: Record<string, unknown>[]): void {
  for (const message of wireMessages) {
    if (message.role !== 'assistant') continue;
    const calls = message.tool_calls;
    if (!Array.isArray(calls) || calls.length === 0 || !calls.some(isRecord)) continue;
    if (typeof message.reasoning_content !== 'string') {
      throw invalidRequest(REASONING_CONTENT_MISSING, { code: 'invalid_request_error' });
    }
  }
}
