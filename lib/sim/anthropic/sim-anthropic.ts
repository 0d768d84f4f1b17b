import { abortReason } from '@/lib/clock';
import { makeId } from '../ids';
import { planOutput, spokenTurn } from '../output-plan';
import { pacedBody } from '../paced-body';
import { drawPacing } from '../pacing';
import { readFetchInput } from '../fetch-input';
import { VendorRejection } from '../rejection';
import { DEFAULT_SIGNING_KEY, signThinking } from '../signature';
import type { SimVendorOptions } from '../types';
import { ANTHROPIC_HTTP_ERRORS } from '@/lib/dialects';
import { anthropicErrorResponse } from './errors';
import { checkAnthropicRequest } from './check-request';
import { PrefixMemo, PromptCache, promptPrefix, type CacheUsage } from '../prompt-cache';
import { cacheBreakpoints } from './cache-breakpoints';
import {
  anthropicMessageBody,
  anthropicStreamFrames,
  totalGenerationMs,
  type AnthropicResponseInput,
} from './render-response';

function checkAuth(headers: Headers, expected: string | undefined): void {
  const bearer = headers.get('authorization')?.replace(/^Bearer\s+/i, '');
  const key = headers.get('x-api-key') ?? bearer ?? '';
  if (key.trim().length === 0) {
    throw new VendorRejection({
      status: 401,
      type: 'authentication_error',
      message: 'x-api-key header is required',
    });
  }
  if (expected !== undefined && key !== expected) {
    throw new VendorRejection({ status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
  }
}

/**
 * A strict simulated Anthropic Messages API as a `fetch`: the real SDK talks to it unchanged.
 * Requests are validated as the vendor does and refused with its own bodies; responses are
 * decided by the policy and streamed through the clock.
 */
export function createSimAnthropic(options: SimVendorOptions): typeof fetch {
  const signingKey = options.signingKey ?? DEFAULT_SIGNING_KEY;
  let served = 0;
  // The run's prompt cache on this vendor (none when the option turns caching off: markers are then checked, nothing is kept).
  const cache = options.promptCache === false ? undefined : new PromptCache(options.clock);
  // This run's last prompt on this vendor, whose blocks the next one repeats.
  const prefixMemo = new PrefixMemo();

  const respond = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = await readFetchInput({ input, init });
    const { signal } = request;
    if (signal?.aborted) throw abortReason(signal);
    const random = options.random.fork(`anthropic-request-${served++}`);
    const requestId = makeId({ random: random.fork('request-id'), kind: 'req' });
    const pacing = drawPacing({ random: random.fork('pacing'), pacing: options.pacing });
    await options.clock.sleep(pacing.headersMs, signal);

    try {
      if (request.method !== 'POST' || request.path !== '/v1/messages') {
        throw new VendorRejection({ status: 404, type: 'not_found_error', message: 'Not Found' });
      }
      checkAuth(request.headers, options.apiKey);
      const { parsed, model, inputTokens } = checkAnthropicRequest({ body: request.body, signingKey });

      let cached: CacheUsage = { read: 0, written: 0, uncached: inputTokens };
      if (request.body.includes('"cache_control"')) {
        const prefix = promptPrefix(
          {
            model: model.id,
            system: parsed.system,
            tools: parsed.tools,
            messages: parsed.messages,
          },
          prefixMemo,
        );
        const breakpoints = cacheBreakpoints(parsed.raw, prefix);
        if (cache && breakpoints.length > 0) cached = cache.breakpoints(prefix, breakpoints, model.cache);
      }

      const thinking = parsed.thinking && model.reasoning;
      const turn = options.policy(
        {
          model: model.id,
          system: parsed.system,
          messages: parsed.messages,
          tools: parsed.tools,
          maxTokens: parsed.maxTokens,
          thinking,
          ...(parsed.toolChoice.type === 'auto' ? {} : { toolChoice: parsed.toolChoice }),
        },
        random.fork('policy'),
      );
      const room = model.contextWindow - inputTokens;
      const cap = Math.min(parsed.maxTokens, room);
      const plan = planOutput({
        turn: spokenTurn(thinking ? turn : { ...turn, thinking: undefined }),
        cap,
        random: random.fork('chunks'),
      });
      const hasTools = plan.blocks.some((b) => b.kind === 'tool_call');
      const stopReason = plan.cut
        ? room < parsed.maxTokens
          ? 'model_context_window_exceeded'
          : 'max_tokens'
        : turn.refusal !== undefined
          ? 'refusal'
          : hasTools
            ? 'tool_use'
            : 'end_turn';
      const ids = random.fork('ids');
      const response: AnthropicResponseInput = {
        id: makeId({ random: ids, kind: 'msg' }),
        model: model.id,
        plan,
        cache: cached,
        stopReason,
        toolIds: plan.blocks
          .filter((b) => b.kind === 'tool_call')
          .map(() => makeId({ random: ids, kind: 'toolu' })),
        signatures: plan.blocks.flatMap((b) =>
          b.kind === 'thinking' ? [signThinking({ key: signingKey, model: model.id, thinking: b.text })] : [],
        ),
        pacing,
      };

      if (!parsed.stream) {
        await options.clock.sleep(totalGenerationMs(response), signal);
        return new Response(anthropicMessageBody(response), {
          status: 200,
          headers: { 'content-type': 'application/json', 'request-id': requestId },
        });
      }
      return new Response(
        pacedBody({ frames: anthropicStreamFrames(response), clock: options.clock, signal }),
        {
          status: 200,
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            'request-id': requestId,
          },
        },
      );
    } catch (error) {
      if (error instanceof VendorRejection) return anthropicErrorResponse({ rejection: error, requestId });
      if (signal?.aborted) throw error;
      // A bug in a policy is the vendor's internal error, not a network failure.
      const [type, message] = ANTHROPIC_HTTP_ERRORS[500]!;
      return anthropicErrorResponse({
        rejection: new VendorRejection({ status: 500, type, message }),
        requestId,
      });
    }
  };
  return respond as typeof fetch;
}
