import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import { fixedPolicy } from '../sim-fixtures.testkit';
import { noToolCall, noToolOutput, notVerified } from './conversation';
import { previousNotFound } from './check-request';
import { ResponseStore } from './response-store';
import { createSimResponses } from './sim-responses';

const TURN = {
  thinking: 'The check reads add(); look there.',
  text: 'Running the check.',
  toolCalls: [{ name: 'run_check', argsText: '{}' }],
};
const TOOLS: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'run_check',
    description: 'Run the check',
    parameters: { type: 'object', properties: {} },
    strict: false,
  },
];

function setup(options: { ttlMs?: number } = {}): { client: OpenAI; clock: VirtualClock } {
  const clock = new VirtualClock();
  const store = new ResponseStore(clock, options.ttlMs);
  const fetch = createSimResponses({ clock, random: createRandom(3), policy: fixedPolicy(TURN), store });
  return {
    client: new OpenAI({
      apiKey: 'sim',
      baseURL: 'http://sim.openai-responses.local/v1',
      fetch,
      maxRetries: 0,
    }),
    clock,
  };
}

const ask = (
  client: OpenAI,
  params: Partial<OpenAI.Responses.ResponseCreateParamsStreaming>,
): Promise<OpenAI.Responses.Response> =>
  client.responses
    .stream({
      model: 'gpt-sim-5',
      input: 'Go.',
      tools: TOOLS,
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
      ...params,
      stream: true,
    })
    .finalResponse();

/** The 400 the SDK raised, as the vendor's body had it. */
async function rejection(
  promise: Promise<unknown>,
): Promise<{ status: number; code: unknown; param: unknown; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  const e = error as InstanceType<typeof OpenAI.BadRequestError> & { error: { message: string } };
  return { status: e.status, code: e.code, param: e.param, message: e.error.message };
}

describe('simulated OpenAI Responses API through the real SDK', () => {
  it('streams reasoning (sealed, with its summary), text and a function call, and completes with usage', async () => {
    const { client } = setup();
    const events: string[] = [];
    const stream = client.responses.stream({
      model: 'gpt-sim-5',
      input: 'Go.',
      tools: TOOLS,
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
    });
    stream.on('event', (e) => events.push(e.type));
    const response = await stream.finalResponse();
    expect(events[0]).toBe('response.created');
    expect(events).toContain('response.reasoning_summary_text.delta');
    expect(events).toContain('response.output_text.delta');
    expect(events).toContain('response.function_call_arguments.delta');
    expect(events.at(-1)).toBe('response.completed');
    expect(response.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    const reasoning = response.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary[0]?.text).toBe(TURN.thinking);
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(response.output_text).toBe(TURN.text);
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('continues a stored response by previous_response_id once its function call has an output', async () => {
    const { client } = setup();
    const first = await ask(client, {});
    const call = first.output.find((o) => o.type === 'function_call')!;
    const second = await ask(client, {
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'PASS' }],
    });
    expect(second.status).toBe('completed');
  });

  it('refuses an unknown previous_response_id with its real 400', async () => {
    const { client } = setup();
    expect(await rejection(ask(client, { previous_response_id: 'resp_unknown' }))).toEqual({
      status: 400,
      code: 'previous_response_not_found',
      param: 'previous_response_id',
      message: previousNotFound('resp_unknown'),
    });
  });

  it('keeps stored responses per model: another model does not find it', async () => {
    const { client } = setup();
    const first = await ask(client, {});
    const call = first.output.find((o) => o.type === 'function_call')!;
    const input: OpenAI.Responses.ResponseInput = [
      { type: 'function_call_output', call_id: call.call_id, output: 'PASS' },
    ];
    expect(
      await rejection(ask(client, { model: 'gpt-sim-5-mini', previous_response_id: first.id, input })),
    ).toMatchObject({
      message: previousNotFound(first.id),
    });
  });

  it('forgets a stored response once it expires, and one stored with store: false is never found', async () => {
    const { client, clock } = setup({ ttlMs: 60_000 });
    const kept = await ask(client, {});
    const unstored = await ask(client, { store: false });
    await clock.sleep(61_000);
    for (const id of [kept.id, unstored.id]) {
      expect(await rejection(ask(client, { previous_response_id: id, input: 'Go on.' }))).toMatchObject({
        code: 'previous_response_not_found',
      });
    }
  });

  it('refuses a function call left without its output, and an output without its call', async () => {
    const { client } = setup();
    const first = await ask(client, {});
    const call = first.output.find((o) => o.type === 'function_call')!;
    expect(await rejection(ask(client, { previous_response_id: first.id, input: 'What now?' }))).toEqual({
      status: 400,
      code: null,
      param: 'input',
      message: noToolOutput(call.call_id),
    });
    expect(
      await rejection(
        ask(client, { input: [{ type: 'function_call_output', call_id: 'call_nowhere', output: 'PASS' }] }),
      ),
    ).toMatchObject({
      message: noToolCall('call_nowhere'),
    });
  });

  it('takes reasoning back only from the model that sealed it', async () => {
    const { client } = setup();
    const first = await ask(client, {});
    const call = first.output.find((o) => o.type === 'function_call')!;
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    const history: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Go.' },
      {
        type: 'reasoning',
        id: reasoning.id,
        summary: reasoning.summary,
        encrypted_content: reasoning.encrypted_content ?? null,
      },
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: 'PASS' },
    ];
    expect((await ask(client, { input: history })).status).toBe('completed');
    expect(await rejection(ask(client, { model: 'gpt-sim-5-mini', input: history }))).toEqual({
      status: 400,
      code: 'invalid_encrypted_content',
      param: null,
      message: notVerified(reasoning.encrypted_content!),
    });
  });

  it('refuses Chat Completions-shaped tools as the vendor does', async () => {
    const { client } = setup();
    const chatTools = [
      { type: 'function', function: { name: 'run_check', parameters: {} } },
    ] as unknown as OpenAI.Responses.FunctionTool[];
    expect(await rejection(ask(client, { tools: chatTools }))).toMatchObject({
      code: 'missing_required_parameter',
      param: 'tools[0].name',
    });
  });
});
