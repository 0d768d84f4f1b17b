import type OpenAI from 'openai';
import { registerDialect, type OpenAIDialect } from '@/lib/dialects';
import { registerVendor, type Message, type Part } from '@/lib/protocol';
import { registerSimulator, VendorRejection, type PolicyRequest, type SimVendorOptions } from '@/lib/sim';
import { openaiErrorBody } from '@/lib/sim/openai/errors';
import { renderOpenAI } from '@/lib/trajectory';

/**
 * A vendor that is not Loop Lab's, added only through the public registration points a real
 * one uses — a dialect module (registerDialect), a vendor row (registerVendor) and a simulator
 * (registerSimulator) — with no edit to the engine, the runtime or the providers.
 *
 * Its dialect is OpenAI Chat Completions with one difference a real variant has: the system
 * prompt goes as a `developer` message. Its simulator refuses a `system` message with a 400, so
 * a run that reached it through any other dialect would fail on its first request.
 */
export const TOY_VENDOR = 'sim-toy';
export const TOY_DIALECT = 'toy-developer-chat';
export const TOY_MODEL = 'toy-1';

export const toyDialect: OpenAIDialect = {
  id: TOY_DIALECT,
  label: 'Toy chat (system prompt as a developer message)',
  wire: 'openai',
  thinkingRule: 'has no field for thinking: foreign thinking is dropped',
  render: ({ request, vendor, handling }) => {
    const rendered = renderOpenAI({
      request,
      vendor,
      reasoningContent: false,
      legacyMaxTokens: false,
      ...(handling ? { handling } : {}),
    });
    const messages = rendered.params.messages.map((m) =>
      m.role === 'system' ? { role: 'developer' as const, content: m.content } : m,
    );
    return {
      params: { ...rendered.params, messages },
      get report() {
        return rendered.report;
      },
    };
  },
};

/** What the toy simulator was sent: each request's message roles, in order. */
export interface ToyTraffic {
  roles: string[][];
}

type ChatMessage = OpenAI.ChatCompletionMessageParam;

/** The toy simulator: a strict Chat Completions endpoint that streams what the run's policy says. */
export function createToySimulator(traffic: ToyTraffic): (options: SimVendorOptions) => typeof fetch {
  return (options) => {
    let served = 0;
    return (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const body = JSON.parse(String(init?.body ?? '{}')) as OpenAI.ChatCompletionCreateParamsStreaming;
      traffic.roles.push(body.messages.map((m) => m.role));
      try {
        if (!url.endsWith('/chat/completions'))
          throw new VendorRejection({
            status: 404,
            type: 'invalid_request_error',
            message: `no route ${url}`,
          });
        if (body.messages.some((m) => m.role === 'system'))
          throw new VendorRejection({
            status: 400,
            type: 'invalid_request_error',
            message:
              "the 'system' role is not accepted here: send the system prompt as a 'developer' message",
          });
      } catch (error) {
        if (!(error instanceof VendorRejection)) throw error;
        return new Response(JSON.stringify(openaiErrorBody({ rejection: error })), {
          status: error.status,
          headers: { 'content-type': 'application/json' },
        });
      }
      const n = served++;
      const turn = options.policy(policyRequest(body), options.random.fork(`toy-${n}`));
      const calls = turn.toolCalls.map((call, i) => ({
        index: i,
        id: `call_toy_${n}_${i}`,
        type: 'function' as const,
        function: { name: call.name, arguments: call.argsText },
      }));
      const chunk = (choice: Record<string, unknown>) => ({
        id: `chatcmpl-toy-${n}`,
        object: 'chat.completion.chunk',
        created: 0,
        model: body.model,
        choices: [{ index: 0, finish_reason: null, ...choice }],
      });
      const text = turn.text ?? '';
      const frames = [
        chunk({ delta: { role: 'assistant', content: text } }),
        ...(calls.length > 0 ? [chunk({ delta: { tool_calls: calls } })] : []),
        chunk({ delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }),
        {
          id: `chatcmpl-toy-${n}`,
          object: 'chat.completion.chunk',
          created: 0,
          model: body.model,
          choices: [],
          usage: {
            prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4),
            completion_tokens: Math.ceil((text.length + JSON.stringify(calls).length) / 4),
            total_tokens: 0,
          },
        },
      ];
      // A fixed wait in run time, so the run's clock moves as it would behind a vendor.
      await options.clock.sleep(50, init?.signal ?? undefined);
      const sse = frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n';
      return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }) as typeof fetch;
  };
}

/** The Chat Completions body as the neutral view a policy reads. */
function policyRequest(body: OpenAI.ChatCompletionCreateParamsStreaming): PolicyRequest {
  const messages: Message[] = [];
  let system = '';
  for (const m of body.messages as ChatMessage[]) {
    if (m.role === 'developer') system = textOf(m.content);
    else if (m.role === 'user')
      messages.push({ role: 'user', parts: [{ type: 'text', text: textOf(m.content) }] });
    else if (m.role === 'assistant') {
      const parts: Part[] = [];
      const text = textOf(m.content ?? '');
      if (text) parts.push({ type: 'text', text });
      for (const call of m.tool_calls ?? []) {
        if (call.type === 'function')
          parts.push({
            type: 'tool_call',
            id: call.id,
            name: call.function.name,
            argsText: call.function.arguments,
          });
      }
      messages.push({ role: 'assistant', parts });
    } else if (m.role === 'tool') {
      const result: Part = {
        type: 'tool_result',
        callId: m.tool_call_id,
        content: textOf(m.content),
        isError: false,
      };
      const last = messages.at(-1);
      if (last?.role === 'user' && last.parts.every((p) => p.type === 'tool_result')) last.parts.push(result);
      else messages.push({ role: 'user', parts: [result] });
    }
  }
  return {
    model: body.model,
    system,
    messages,
    tools: (body.tools ?? []).flatMap((tool) =>
      tool.type === 'function'
        ? [
            {
              name: tool.function.name,
              description: tool.function.description ?? '',
              inputSchema: (tool.function.parameters ?? {}) as Record<string, unknown>,
            },
          ]
        : [],
    ),
    maxTokens: body.max_completion_tokens ?? 4096,
    thinking: false,
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? '').join('');
  return '';
}

/** Registers the toy dialect, vendor and simulator; returns what removes all three again. */
export function registerToyVendor(traffic: ToyTraffic): () => void {
  const undo = [
    registerDialect(toyDialect),
    registerVendor({
      id: TOY_VENDOR,
      label: 'Simulated toy vendor',
      dialect: TOY_DIALECT,
      wire: 'openai',
      sdk: 'openai',
      simulated: true,
      baseUrl: 'http://sim.toy.local/v1',
      defaultModel: TOY_MODEL,
      fallbackModel: TOY_MODEL,
    }),
    registerSimulator({
      vendor: TOY_VENDOR,
      create: createToySimulator(traffic),
      check: (body) => {
        if ((JSON.parse(body) as { messages: { role: string }[] }).messages.some((m) => m.role === 'system'))
          throw new VendorRejection({
            status: 400,
            type: 'invalid_request_error',
            message: "no 'system' role",
          });
      },
      errorBody: (rejection) => openaiErrorBody({ rejection }),
    }),
  ];
  return () => undo.reverse().forEach((u) => u());
}
