import { renderAnthropic } from '@/lib/trajectory';
import { withAnthropicFormat, withFormat } from './response-format';
import type { AnthropicDialect } from './types';

/**
 * Anthropic Messages: thinking travels back only with the signature its own model minted;
 * a foreign or edited block is a 400, so on a switch credentials are dropped.
 */
export const anthropicMessages: AnthropicDialect = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages',
  wire: 'anthropic',
  thinkingRule: 'takes back only thinking blocks signed by the same model; a foreign signature is a 400',
  render: ({ request, vendor, handling }) => {
    const rendered = renderAnthropic({ request, vendor, ...(handling ? { handling } : {}) });
    return withFormat(rendered, request.responseFormat, withAnthropicFormat);
  },
};
