import { abortReason } from '@/lib/clock';
import { makeId, randomChars } from '../ids';
import { planOutput, spokenTurn } from '../output-plan';
import { pacedBody } from '../paced-body';
import { drawPacing } from '../pacing';
import { readFetchInput } from '../fetch-input';
import { VendorRejection } from '../rejection';
import type { SimVendorOptions } from '../types';
import { checkOpenAIRequest, type OpenAIFlavor } from './check-request';
import { OPENAI_HTTP_ERRORS } from '@/lib/dialects';
import { openaiErrorResponse } from './errors';
import { PrefixMemo, PromptCache, promptPrefix, type CacheUsage } from '../prompt-cache';
import { openaiCompletionBody, openaiStreamFrames, type OpenAIResponseInput } from './render-response';

/** `created` timestamps count from a fixed epoch in run time, so bytes repeat run after run. */
const SIM_EPOCH_MS = Date.UTC(2025, 0, 1);

function checkAuth(headers: Headers, expected: string | undefined): void {
  const key = headers.get('authorization')?.replace(/^Bearer\s*/i, '') ?? '';
  if (key.trim().length === 0) {
    throw new VendorRejection({
      status: 401,
      type: 'invalid_request_error',
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    });
  }
  if (expected !== undefined && key !== expected) {
    const shown = key.length > 8 ? `${key.slice(0, 3)}*****${key.slice(-4)}` : key;
    throw new VendorRejection({
      status: 401,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    });
  }
}

/**
 * A strict simulated OpenAI Chat Completions API as a `fetch`; the real SDK talks to it
 * unchanged. Same policy and pacing as the Anthropic sim, in this vendor's bytes. As the
 * DeepSeek-style flavor it serves reasoning models that stream `reasoning_content` and
 * refuse a tool-call turn sent back without it.
 */
export function createSimOpenAI(options: SimVendorOptions & { flavor?: OpenAIFlavor }): typeof fetch {
  const flavor = options.flavor ?? 'openai';
  let served = 0;
  // The run's automatic prefix cache on this vendor (none when the option turns caching off).
  const cache = options.promptCache === false ? undefined : new PromptCache(options.clock);
  // This run's last prompt on this vendor, whose blocks the next one repeats.
  const prefixMemo = new PrefixMemo();

  const respond = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = await readFetchInput({ input, init });
    const { signal } = request;
    if (signal?.aborted) throw abortReason(signal);
    const random = options.random.fork(`openai-request-${served++}`);
    const requestId = `req_${randomChars({ random: random.fork('request-id'), length: 32, alphabet: '0123456789abcdef' })}`;
    const pacing = drawPacing({ random: random.fork('pacing'), pacing: options.pacing });
    await options.clock.sleep(pacing.headersMs, signal);

    try {
      if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
        throw new VendorRejection({
          status: 404,
          type: 'invalid_request_error',
          message: `Invalid URL (${request.method} ${request.path})`,
        });
      }
      checkAuth(request.headers, options.apiKey);
      const { parsed, model, promptTokens } = checkOpenAIRequest({ body: request.body, flavor });

      // Automatic: no request field; every prompt long enough is cached and read back by prefix.
      let cached: CacheUsage = { read: 0, written: 0, uncached: promptTokens };
      if (cache && promptTokens >= model.cache.minTokens) {
        cached = cache.automatic(
          promptPrefix(
            {
              model: model.id,
              system: parsed.system,
              tools: parsed.tools,
              messages: parsed.messages,
            },
            prefixMemo,
          ),
          model.cache,
        );
      }

      const maxTokens = parsed.maxTokens ?? model.maxOutputTokens;
      const turn = options.policy(
        {
          model: model.id,
          system: parsed.system,
          messages: parsed.messages,
          tools: parsed.tools,
          maxTokens,
          thinking: model.reasoning,
          ...(parsed.answerFormat ? { answerFormat: parsed.answerFormat } : {}),
        },
        random.fork('policy'),
      );
      const cap = Math.min(maxTokens, model.contextWindow - promptTokens);
      const plan = planOutput({
        turn: spokenTurn(model.reasoning ? turn : { ...turn, thinking: undefined }),
        cap,
        random: random.fork('chunks'),
      });
      const hasTools = plan.blocks.some((b) => b.kind === 'tool_call');
      const ids = random.fork('ids');
      const response: OpenAIResponseInput = {
        id: makeId({ random: ids, kind: 'chatcmpl' }),
        created: Math.floor((SIM_EPOCH_MS + options.clock.now()) / 1000),
        model: model.id,
        systemFingerprint: `fp_${randomChars({ random: options.random.fork(`fingerprint-${model.id}`), length: 10, alphabet: '0123456789abcdef' })}`,
        plan,
        promptTokens,
        cache: cached,
        finishReason: plan.cut ? 'length' : hasTools ? 'tool_calls' : 'stop',
        callIds: plan.blocks
          .filter((b) => b.kind === 'tool_call')
          .map(() => makeId({ random: ids, kind: 'call' })),
        includeUsage: parsed.includeUsage,
        pacing,
        ...(turn.refusal !== undefined ? { refusal: true } : {}),
      };

      if (!parsed.stream) {
        await options.clock.sleep(pacing.firstTokenMs + pacing.forTokens(plan.outputTokens), signal);
        return new Response(openaiCompletionBody(response), {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        });
      }
      return new Response(pacedBody({ frames: openaiStreamFrames(response), clock: options.clock, signal }), {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          'x-request-id': requestId,
        },
      });
    } catch (error) {
      if (error instanceof VendorRejection) return openaiErrorResponse({ rejection: error, requestId });
      if (signal?.aborted) throw error;
      // A bug in a policy is the vendor's internal error, not a network failure.
      const [type, code, message] = OPENAI_HTTP_ERRORS[500]!;
      return openaiErrorResponse({
        rejection: new VendorRejection({ status: 500, type, code, message }),
        requestId,
      });
    }
  };
  return respond as typeof fetch;
}

/** The DeepSeek-style reasoning endpoint: OpenAI's dialect with `reasoning_content`. */
export function createSimDeepSeek(options: SimVendorOptions): typeof fetch {
  return createSimOpenAI({ ...options, flavor: 'deepseek' });
}
