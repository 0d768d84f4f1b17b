import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import type { ModelRequest } from './model-request';
import { renderOpenAI } from './render-openai';

const SIG = 'EqQBsim-signature';

function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gpt-sim-4o',
    system: 'Be careful.',
    messages,
    tools: [
      {
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    maxTokens: 2048,
    thinking: true,
    ...extra,
  };
}

/** A trajectory begun on sim-anthropic: signed thinking, a tool call with bad args, results. */
const fromAnthropic: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Fix the test.' }] },
  {
    role: 'assistant',
    parts: [
      {
        type: 'thinking',
        text: 'Read first.',
        credential: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', signature: SIG },
      },
      { type: 'text', text: 'Reading.' },
      {
        type: 'tool_call',
        id: 'toolu_1',
        name: 'read_file',
        argsText: '{"path":"a.ts"}',
        args: { path: 'a.ts' },
      },
      { type: 'tool_call', id: 'toolu_2', name: 'read_file', argsText: '{"path":' },
    ],
  },
  {
    role: 'user',
    parts: [
      { type: 'tool_result', callId: 'toolu_1', content: 'export const a = 1;', isError: false },
      { type: 'tool_result', callId: 'toolu_2', content: 'arguments are not valid JSON', isError: true },
      { type: 'text', text: 'Keep going.' },
    ],
  },
];

describe('renderOpenAI', () => {
  it('renders a takeover from Anthropic: thinking dropped and reported, calls and results as chat messages', () => {
    const { params, report } = renderOpenAI({
      request: request(fromAnthropic),
      vendor: 'sim-openai',
      reasoningContent: false,
      legacyMaxTokens: false,
    });
    expect(params).toEqual({
      model: 'gpt-sim-4o',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2048,
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
      messages: [
        { role: 'system', content: 'Be careful.' },
        { role: 'user', content: 'Fix the test.' },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
            },
            { id: 'toolu_2', type: 'function', function: { name: 'read_file', arguments: '{"path":' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'export const a = 1;' },
        { role: 'tool', tool_call_id: 'toolu_2', content: 'arguments are not valid JSON' },
        { role: 'user', content: 'Keep going.' },
      ],
    });
    expect(JSON.stringify(params)).not.toContain(SIG);
    expect(JSON.stringify(params)).not.toContain('Read first.');
    expect(report.dropped).toEqual([
      {
        kind: 'thinking',
        detail: 'thinking block from claude-sim-sonnet dropped: sim-openai/gpt-sim-4o takes no thinking back',
      },
    ]);
    expect(report.converted).toEqual([
      '2 × tool call rendered as a function tool call',
      '2 × tool result rendered as a tool message',
    ]);
  });

  it('uses max_tokens and a reasoning_content placeholder for DeepSeek tool-call turns, never foreign thinking', () => {
    const { params, report } = renderOpenAI({
      request: request(fromAnthropic, { model: 'deepseek-chat' }),
      vendor: 'openai-compatible',
      reasoningContent: true,
      legacyMaxTokens: true,
    });
    expect(params.max_tokens).toBe(2048);
    expect(params).not.toHaveProperty('max_completion_tokens');
    expect(params.messages[2]).toMatchObject({ role: 'assistant', reasoning_content: '(reasoning omitted)' });
    expect(JSON.stringify(params)).not.toContain(SIG);
    expect(JSON.stringify(params)).not.toContain('Read first.');
    expect(report.dropped.map((d) => d.kind)).toEqual(['thinking']);
    expect(report.converted).toContain(
      '1 × tool-call turn given the placeholder reasoning_content "(reasoning omitted)"',
    );
  });

  it('passes a DeepSeek model its own reasoning back as reasoning_content', () => {
    const own = { vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' };
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'thinking', text: 'Check first.', origin: own },
          { type: 'tool_call', id: 'call_1', name: 'run_check', argsText: '{}' },
        ],
      },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'call_1', content: 'ok', isError: false }] },
    ];
    const { params, report } = renderOpenAI({
      request: request(messages, { model: 'deepseek-sim-reasoner' }),
      vendor: 'sim-deepseek',
      reasoningContent: true,
      legacyMaxTokens: true,
    });
    expect(params.messages[2]).toMatchObject({ role: 'assistant', reasoning_content: 'Check first.' });
    expect(report.dropped).toEqual([]);
  });

  it('gives a tool-call turn without thinking the placeholder reasoning_content "(reasoning omitted)", and only for OpenAI-compatible', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'run_check', argsText: '{}' }] },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'call_1', content: 'ok', isError: false }] },
      {
        role: 'assistant',
        parts: [
          { type: 'thinking', text: 'all good' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ];
    const compatible = renderOpenAI({
      request: request(messages, { model: 'deepseek-chat' }),
      vendor: 'openai-compatible',
      reasoningContent: true,
      legacyMaxTokens: true,
    });
    expect(compatible.params.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_check', arguments: '{}' } }],
      reasoning_content: '(reasoning omitted)',
    });
    // A final answer's reasoning is not passed back: DeepSeek ignores it there.
    expect(compatible.params.messages[4]).toEqual({ role: 'assistant', content: 'Done.' });
    expect(compatible.report.dropped.map((d) => d.kind)).toEqual(['thinking']);
    const openai = renderOpenAI({
      request: request(messages, { model: 'gpt-4o' }),
      vendor: 'openai',
      reasoningContent: false,
      legacyMaxTokens: false,
    });
    expect(JSON.stringify(openai.params)).not.toContain('reasoning_content');
    expect(openai.params.max_completion_tokens).toBe(2048);
  });

  it('drops redacted thinking and skips a message left empty', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'redacted_thinking', data: 'REDACTED==', vendor: 'anthropic', model: 'claude-haiku-4-5' },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Again.' }] },
    ];
    const { params, report } = renderOpenAI({
      request: request(messages),
      vendor: 'openai',
      reasoningContent: false,
      legacyMaxTokens: false,
    });
    expect(params.messages).toEqual([
      { role: 'system', content: 'Be careful.' },
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'Again.' },
    ]);
    expect(report.dropped).toEqual([
      {
        kind: 'redacted_thinking',
        detail:
          'redacted thinking block from claude-haiku-4-5 dropped: it is bound to anthropic/claude-haiku-4-5 and openai cannot read it',
      },
    ]);
  });

  it('omits an empty system prompt and an empty tool list', () => {
    const { params } = renderOpenAI({
      request: request(fromAnthropic.slice(0, 1), { system: '', tools: [] }),
      vendor: 'openai',
      reasoningContent: false,
      legacyMaxTokens: false,
    });
    expect(params.messages).toEqual([{ role: 'user', content: 'Fix the test.' }]);
    expect(params).not.toHaveProperty('tools');
  });
});

describe('renderOpenAI over a growing history (each message rendered once per target)', () => {
  it('renders every request of a growing history as a rendering from scratch would, report included', () => {
    const messages: Message[] = [];
    for (const message of [...fromAnthropic, ...fromAnthropic.slice(1)]) {
      messages.push(message);
      const again = renderOpenAI({
        request: request([...messages]),
        vendor: 'sim-openai',
        reasoningContent: false,
        legacyMaxTokens: false,
      });
      const fresh = renderOpenAI({
        request: request(structuredClone(messages)),
        vendor: 'sim-openai',
        reasoningContent: false,
        legacyMaxTokens: false,
      });
      expect(again.params).toEqual(fresh.params);
      expect(again.report).toEqual(fresh.report);
    }
  });

  it('does not carry a rendering over to another target: DeepSeek gets reasoning_content, OpenAI does not, and back', () => {
    const own = { vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' };
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'thinking', text: 'Check first.', origin: own },
          { type: 'tool_call', id: 'call_1', name: 'run_check', argsText: '{}' },
        ],
      },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'call_1', content: 'ok', isError: false }] },
    ];
    const deepseek = () =>
      renderOpenAI({
        request: request(messages, { model: 'deepseek-sim-reasoner' }),
        vendor: 'sim-deepseek',
        reasoningContent: true,
        legacyMaxTokens: true,
      });
    expect(deepseek().params.messages[2]).toMatchObject({ reasoning_content: 'Check first.' });
    const openai = renderOpenAI({
      request: request(messages),
      vendor: 'sim-openai',
      reasoningContent: false,
      legacyMaxTokens: false,
    });
    expect(openai.params.messages[2]).not.toHaveProperty('reasoning_content');
    expect(openai.report.dropped.map((d) => d.kind)).toEqual(['thinking']);
    const noted = renderOpenAI({
      request: request(messages),
      vendor: 'sim-openai',
      reasoningContent: false,
      legacyMaxTokens: false,
      handling: { foreignThinking: 'note', naive: false },
    });
    expect(noted.report.converted).toContain('1 × foreign thinking kept as a marked note');
    expect(openai.report.converted).not.toContain('1 × foreign thinking kept as a marked note');
    expect(deepseek().params.messages[2]).toMatchObject({ reasoning_content: 'Check first.' });
    expect(deepseek().report.dropped).toEqual([]);
  });
});
