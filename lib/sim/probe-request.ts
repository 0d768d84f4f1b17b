import type { Vendor } from '@/lib/protocol';
import { checkAnthropicRequest } from './anthropic/check-request';
import { anthropicErrorBody } from './anthropic/errors';
import { checkOpenAIRequest } from './openai/check-request';
import { openaiErrorBody } from './openai/errors';
import { VendorRejection } from './rejection';
import { checkResponsesRequest } from './responses/check-request';
import { DEFAULT_SIGNING_KEY } from './signature';

/** What a strict simulated vendor says of a request body, without generating anything. */
export type ProbeVerdict =
  | { accepted: true }
  | { accepted: false; status: number; type: string; message: string; body: Record<string, unknown> };

/**
 * Validates a rendered request exactly as the simulated vendor would on arrival and returns
 * its verdict: accepted, or its real error (status and body). Undefined for real vendors:
 * Loop Lab does not spend a real vendor's money to show a counterfactual.
 */
export function probeSimRequest(options: {
  vendor: Vendor;
  body: unknown;
  signingKey?: string;
}): ProbeVerdict | undefined {
  const { vendor } = options;
  const text = JSON.stringify(options.body);
  try {
    if (vendor === 'sim-anthropic')
      checkAnthropicRequest({ body: text, signingKey: options.signingKey ?? DEFAULT_SIGNING_KEY });
    else if (vendor === 'sim-openai') checkOpenAIRequest({ body: text, flavor: 'openai' });
    else if (vendor === 'sim-deepseek') checkOpenAIRequest({ body: text, flavor: 'deepseek' });
    // Without the run's store every previous_response_id is unknown: the probe judges a body by value.
    else if (vendor === 'sim-openai-responses') checkResponsesRequest({ body: text });
    else return undefined;
    return { accepted: true };
  } catch (error) {
    if (!(error instanceof VendorRejection)) throw error;
    const body =
      vendor === 'sim-anthropic'
        ? anthropicErrorBody({ rejection: error, requestId: 'req_probe' })
        : openaiErrorBody({ rejection: error });
    return { accepted: false, status: error.status, type: error.type, message: error.message, body };
  }
}
