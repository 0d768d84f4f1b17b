import { describe, expect, it } from 'vitest';
import { DEFAULT_TAKEOVER, type Message, type TakeoverHandling, type Vendor } from '@/lib/protocol';
import { DEFAULT_SIGNING_KEY, probeSimRequest, REASONING_CONTENT_MISSING, signThinking } from '@/lib/sim';
import type { ModelRequest } from '@/lib/trajectory';
import { anthropicMessages } from './anthropic-messages';
import { dialectFor } from './registry';

const SONNET = 'claude-sim-sonnet';
const HAIKU = 'claude-sim-haiku';

function signed(text: string, model = SONNET): Message['parts'][number] {
  return {
    type: 'thinking',
    text,
    origin: { vendor: 'sim-anthropic', model },
    credential: {
      vendor: 'sim-anthropic',
      model,
      signature: signThinking({ key: DEFAULT_SIGNING_KEY, model, thinking: text }),
    },
  };
}

/** Two tool rounds on sim-anthropic (Sonnet) with signed thinking; the latest round still open. */
const history: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Fix the failing test.' }] },
  {
    role: 'assistant',
    parts: [
      signed('Look at the source first.'),
      {
        type: 'tool_call',
        id: 'toolu_1',
        name: 'read_file',
        argsText: '{"path":"a.ts"}',
        args: { path: 'a.ts' },
      },
    ],
  },
  {
    role: 'user',
    parts: [{ type: 'tool_result', callId: 'toolu_1', content: 'export const a = 1;', isError: false }],
  },
  {
    role: 'assistant',
    parts: [
      signed('Now run the check.'),
      { type: 'tool_call', id: 'toolu_2', name: 'run_check', argsText: '{}', args: {} },
    ],
  },
  { role: 'user', parts: [{ type: 'tool_result', callId: 'toolu_2', content: '1 passed', isError: false }] },
];

function request(model: string): ModelRequest {
  return {
    model,
    system: 'Be careful.',
    messages: history,
    tools: [
      { name: 'read_file', description: 'Read', inputSchema: { type: 'object' } },
      { name: 'run_check', description: 'Check', inputSchema: { type: 'object' } },
    ],
    maxTokens: 4096,
    thinking: true,
  };
}

function renderAndProbe(vendor: Vendor, model: string, handling: TakeoverHandling = DEFAULT_TAKEOVER) {
  const rendered = dialectFor({ vendor, model }).render({ request: request(model), vendor, handling });
  return { ...rendered, verdict: probeSimRequest({ vendor, body: rendered.params }) };
}

describe('takeover rendering against the strict simulated vendors', () => {
  it('sends the minting model its own signed history and is accepted', () => {
    const { verdict, report } = renderAndProbe('sim-anthropic', SONNET);
    expect(verdict).toEqual({ accepted: true });
    expect(report.dropped).toEqual([]);
  });

  it('Claude model A → model B: the signatures A minted, sent naively, are rejected with the real 400', () => {
    const naive = renderAndProbe('sim-anthropic', HAIKU, { foreignThinking: 'drop', naive: true });
    expect(naive.verdict).toMatchObject({ accepted: false, status: 400, type: 'invalid_request_error' });
    expect(naive.verdict?.accepted === false && naive.verdict.message).toBe(
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    expect(naive.verdict?.accepted === false && naive.verdict.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });

    const handled = renderAndProbe('sim-anthropic', HAIKU);
    expect(handled.verdict).toEqual({ accepted: true });
    expect(handled.report.dropped.map((d) => d.kind)).toEqual(['thinking', 'thinking', 'thinking_config']);
  });

  it("drops the latest assistant turn's foreign thinking too, not only older turns'", () => {
    const { params } = anthropicMessages.render({ request: request(HAIKU), vendor: 'sim-anthropic' });
    const latest = params.messages[params.messages.length - 2]!;
    expect(latest.role).toBe('assistant');
    expect(JSON.stringify(latest.content)).not.toContain('thinking');
    expect(JSON.stringify(params)).not.toContain('Now run the check.');
    // The open tool round no longer starts with this model's thinking: thinking is off for this one request.
    expect(params.thinking).toBeUndefined();
  });

  it('keeps foreign thinking as a clearly marked note when asked, and the credential still never travels', () => {
    const { params, report, verdict } = renderAndProbe('sim-openai', 'gpt-sim-4o', {
      foreignThinking: 'note',
      naive: false,
    });
    const text = JSON.stringify(params);
    expect(text).toContain(
      '[Note carried over on a model switch: reasoning written by sim-anthropic/claude-sim-sonnet, not by you]',
    );
    expect(text).not.toContain(
      history[1]!.parts[0]!.type === 'thinking'
        ? (history[1]!.parts[0] as { credential: { signature: string } }).credential.signature
        : '',
    );
    expect(report.dropped.map((d) => d.kind)).toEqual(['signature', 'signature']);
    expect(verdict).toEqual({ accepted: true });
  });

  it('DeepSeek-style target: placeholders keep it happy; the naive rendering meets its real reasoning_content 400', () => {
    const handled = renderAndProbe('sim-deepseek', 'deepseek-sim-reasoner');
    expect(handled.verdict).toEqual({ accepted: true });
    expect(handled.report.converted).toContain(
      '2 × tool-call turn given the placeholder reasoning_content "(reasoning omitted)"',
    );

    const naive = renderAndProbe('sim-deepseek', 'deepseek-sim-reasoner', {
      foreignThinking: 'drop',
      naive: true,
    });
    expect(naive.verdict).toEqual({
      accepted: false,
      status: 400,
      type: 'invalid_request_error',
      message: REASONING_CONTENT_MISSING,
      body: {
        error: {
          message: REASONING_CONTENT_MISSING,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      },
    });
  });

  it('OpenAI history handed to Anthropic naively meets the missing-thinking 400; handled, thinking waits a round', () => {
    const openaiHistory: Message[] = [
      history[0]!,
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'run_check', argsText: '{}', args: {} }],
      },
      {
        role: 'user',
        parts: [{ type: 'tool_result', callId: 'call_1', content: '1 passed', isError: false }],
      },
    ];
    const req = { ...request(SONNET), messages: openaiHistory };
    const naive = dialectFor({ vendor: 'sim-anthropic', model: SONNET }).render({
      request: req,
      vendor: 'sim-anthropic',
      handling: { foreignThinking: 'drop', naive: true },
    });
    const verdict = probeSimRequest({ vendor: 'sim-anthropic', body: naive.params });
    expect(verdict?.accepted === false && verdict.message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
    );
    const handled = dialectFor({ vendor: 'sim-anthropic', model: SONNET }).render({
      request: req,
      vendor: 'sim-anthropic',
    });
    expect(probeSimRequest({ vendor: 'sim-anthropic', body: handled.params })).toEqual({ accepted: true });
  });

  it('picks the dialect from vendor and model', () => {
    expect(dialectFor({ vendor: 'anthropic', model: 'claude-sonnet-4-6' }).id).toBe('anthropic-messages');
    expect(dialectFor({ vendor: 'sim-openai', model: 'gpt-sim-4o' }).id).toBe('openai-chat');
    expect(dialectFor({ vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' }).id).toBe(
      'deepseek-reasoning',
    );
    expect(dialectFor({ vendor: 'openai-compatible', model: 'deepseek-reasoner' }).id).toBe(
      'deepseek-reasoning',
    );
    expect(dialectFor({ vendor: 'openai-compatible', model: 'llama3.1' }).id).toBe('openai-compatible');
  });

  it('Responses target: Claude’s history goes by value as input items, its signatures dropped, and is accepted', () => {
    const { params, report, verdict } = renderAndProbe('sim-openai-responses', 'gpt-sim-5');
    expect(verdict).toEqual({ accepted: true });
    expect(params).toMatchObject({ model: 'gpt-sim-5', instructions: 'Be careful.', store: true });
    expect(params).not.toHaveProperty('previous_response_id');
    const items = (params as { input: { type?: string }[] }).input;
    expect(items.map((i) => i.type ?? 'message')).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'function_call',
      'function_call_output',
    ]);
    expect(report.converted).toContain('5 × message sent by value');
    expect(report.dropped.map((d) => d.kind)).toEqual(['thinking', 'thinking']);
  });

  it('Responses target, naive: Claude’s signatures sent as encrypted reasoning meet its real invalid_encrypted_content 400', () => {
    const { verdict } = renderAndProbe('sim-openai-responses', 'gpt-sim-5', {
      foreignThinking: 'drop',
      naive: true,
    });
    expect(verdict).toMatchObject({
      accepted: false,
      status: 400,
      type: 'invalid_request_error',
      body: { error: { code: 'invalid_encrypted_content' } },
    });
    expect(verdict).toMatchObject({
      message: expect.stringMatching(/^The encrypted content .+ could not be verified\.$/),
    });
  });
});
