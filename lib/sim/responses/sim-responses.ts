import { abortReason } from '@/lib/clock';
import { OPENAI_HTTP_ERRORS } from '@/lib/dialects';
import { readFetchInput } from '../fetch-input';
import { randomChars } from '../ids';
import { planOutput, spokenTurn } from '../output-plan';
import { pacedBody } from '../paced-body';
import { drawPacing } from '../pacing';
import { VendorRejection } from '../rejection';
import type { SimVendorOptions } from '../types';
import { openaiErrorResponse } from '../openai/errors';
import { checkResponsesRequest } from './check-request';
import { outputItems, responsesStreamFrames, type ResponsesOutputInput } from './render-response';
import { PrefixMemo, PromptCache, promptPrefix } from '../prompt-cache';
import { ResponseStore } from './response-store';

/** `created_at` counts from a fixed epoch in run time, so bytes repeat run after run. */
const SIM_EPOCH_MS = Date.UTC(2025, 0, 1);

const hexId = (random: SimVendorOptions['random'], prefix: string): string =>
  `${prefix}_${randomChars({ random, length: 48, alphabet: '0123456789abcdef' })}`;

/**
 * A strict simulated OpenAI Responses API (`POST /v1/responses`) as a `fetch`; the real SDK's
 * `responses.stream` talks to it unchanged. It validates requests as the vendor does and
 * refuses them with its own 400s (an unknown or expired `previous_response_id`, a function
 * call without its output, reasoning sealed to another model); it stores every response
 * whose request did not say `store: false`, per model, for later references; and its
 * reasoning items come back sealed (`encrypted_content`) to the model that minted them.
 */
export function createSimResponses(options: SimVendorOptions & { store?: ResponseStore }): typeof fetch {
  const store = options.store ?? new ResponseStore(options.clock);
  // The run's automatic prefix cache, as the Chat API's (none when the option turns caching off):
  // the whole prompt counts, the part a stored response holds by reference included.
  const cache = options.promptCache === false ? undefined : new PromptCache(options.clock);
  // This run's last prompt on this vendor, whose blocks the next one repeats.
  const prefixMemo = new PrefixMemo();
  let served = 0;

  const respond = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = await readFetchInput({ input, init });
    const { signal } = request;
    if (signal?.aborted) throw abortReason(signal);
    const random = options.random.fork(`responses-request-${served++}`);
    const requestId = `req_${randomChars({ random: random.fork('request-id'), length: 32, alphabet: '0123456789abcdef' })}`;
    const pacing = drawPacing({ random: random.fork('pacing'), pacing: options.pacing });
    await options.clock.sleep(pacing.headersMs, signal);

    try {
      if (request.method !== 'POST' || request.path !== '/v1/responses') {
        throw new VendorRejection({
          status: 404,
          type: 'invalid_request_error',
          message: `Invalid URL (${request.method} ${request.path})`,
        });
      }
      const key = request.headers.get('authorization')?.replace(/^Bearer\s*/i, '') ?? '';
      if (key.trim().length === 0 || (options.apiKey !== undefined && key !== options.apiKey)) {
        throw new VendorRejection({
          status: 401,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
          message:
            'Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.',
        });
      }
      const checked = checkResponsesRequest({
        body: request.body,
        store,
        ...(options.signingKey ? { sealingKey: options.signingKey } : {}),
      });
      const { parsed, model, promptTokens } = checked;
      if (!parsed.stream)
        throw new VendorRejection({
          status: 400,
          type: 'invalid_request_error',
          message: 'Loop Lab simulates streamed responses only (stream: true).',
          param: 'stream',
        });

      let cachedTokens = 0;
      if (cache && promptTokens >= model.cache.minTokens) {
        cachedTokens = cache.automatic(
          promptPrefix(
            {
              model: model.id,
              system: checked.system,
              tools: parsed.tools,
              messages: checked.messages,
            },
            prefixMemo,
          ),
          model.cache,
        ).read;
      }

      const maxTokens = parsed.maxOutputTokens ?? model.maxOutputTokens;
      const turn = options.policy(
        {
          model: model.id,
          system: checked.system,
          messages: checked.messages,
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
      const ids = random.fork('ids');
      const prefixOf = { thinking: 'rs', text: 'msg', tool_call: 'fc' } as const;
      const output: ResponsesOutputInput = {
        id: hexId(ids, 'resp'),
        createdAt: Math.floor((SIM_EPOCH_MS + options.clock.now()) / 1000),
        model: model.id,
        plan,
        promptTokens,
        cachedTokens,
        itemIds: plan.blocks.map((b) => hexId(ids, prefixOf[b.kind])),
        callIds: plan.blocks
          .filter((b) => b.kind === 'tool_call')
          .map(() => `call_${randomChars({ random: ids, length: 24 })}`),
        includeEncrypted: parsed.includeEncrypted,
        summary: parsed.summary,
        ...(turn.refusal !== undefined ? { refusal: true } : {}),
        maxOutputTokens: parsed.maxOutputTokens ?? null,
        previousResponseId: parsed.previousResponseId ?? null,
        store: parsed.store,
        instructions: parsed.instructions === '' ? null : parsed.instructions,
        tools: parsed.tools.map((t) => ({
          type: 'function',
          name: t.name,
          description: t.description,
          parameters: t.inputSchema,
          strict: false,
        })),
        pacing,
        ...(options.signingKey ? { sealingKey: options.signingKey } : {}),
      };
      // Stored at once: a reference to it is good from the moment its id is out.
      if (parsed.store)
        store.put({
          id: output.id,
          model: model.id,
          items: [...checked.chain, ...parsed.input, ...outputItems(output)],
          instructions: parsed.instructions,
        });
      return new Response(
        pacedBody({ frames: responsesStreamFrames(output), clock: options.clock, signal }),
        {
          status: 200,
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            'x-request-id': requestId,
          },
        },
      );
    } catch (error) {
      if (error instanceof VendorRejection) return openaiErrorResponse({ rejection: error, requestId });
      if (signal?.aborted) throw error;
      const [type, code, message] = OPENAI_HTTP_ERRORS[500]!;
      return openaiErrorResponse({
        rejection: new VendorRejection({ status: 500, type, code, message }),
        requestId,
      });
    }
  };
  return respond as typeof fetch;
}
