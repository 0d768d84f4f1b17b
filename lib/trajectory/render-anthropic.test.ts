import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import type { ModelRequest } from './model-request';
import { renderAnthropic } from './render-anthropic';

const SIG = 'EqQBsim-signature';

function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sim-sonnet',
    system: 'Be careful.',
    messages,
    tools: [
      {
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    maxTokens: 8192,
    thinking: true,
    ...extra,
  };
}

/** A tool round minted by sim-anthropic/claude-sim-sonnet, answered by one result. */
const toolRound: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Fix the test.' }] },
  {
    role: 'assistant',
    parts: [
      {
        type: 'thinking',
        text: 'Read first.',
        credential: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', signature: SIG },
      },
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
];

describe('renderAnthropic', () => {
  it('renders system, tools, thinking config and a tool round back to its minter intact', () => {
    const { params, report } = renderAnthropic({ request: request(toolRound), vendor: 'sim-anthropic' });
    expect(params).toEqual({
      model: 'claude-sim-sonnet',
      max_tokens: 8192,
      stream: true,
      system: 'Be careful.',
      tools: [
        {
          name: 'read_file',
          description: 'Read a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
      thinking: { type: 'enabled', budget_tokens: 4096 },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the test.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Read first.', signature: SIG },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;', is_error: false },
          ],
        },
      ],
    });
    expect(report.dropped).toEqual([]);
    expect(report.converted).toContain('1 × thinking block passed back with its signature');
  });

  it('never sends a sim signature to the real vendor: drops it, reports it, and keeps thinking off mid-round', () => {
    const { params, report } = renderAnthropic({
      request: request(toolRound, { model: 'claude-haiku-4-5' }),
      vendor: 'anthropic',
    });
    expect(JSON.stringify(params)).not.toContain(SIG);
    expect(params.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }],
    });
    expect(params.thinking).toBeUndefined();
    expect(report.dropped).toEqual([
      {
        kind: 'thinking',
        detail:
          'thinking block from claude-sim-sonnet dropped: credential is bound to sim-anthropic/claude-sim-sonnet, not anthropic/claude-haiku-4-5',
      },
      {
        kind: 'thinking_config',
        detail:
          'extended thinking off for this request: the tool round in progress did not start with a thinking block signed by anthropic/claude-haiku-4-5',
      },
    ]);
  });

  it('never sends a real signature to the simulator, nor one to a sibling model', () => {
    const real: Message[] = toolRound.map((m) => ({
      ...m,
      parts: m.parts.map((p) =>
        p.type === 'thinking'
          ? { ...p, credential: { vendor: 'anthropic', model: 'claude-sim-sonnet', signature: SIG } }
          : p,
      ),
    }));
    expect(
      JSON.stringify(renderAnthropic({ request: request(real), vendor: 'sim-anthropic' }).params),
    ).not.toContain(SIG);
    const sibling = renderAnthropic({
      request: request(toolRound, { model: 'claude-sim-haiku' }),
      vendor: 'sim-anthropic',
    });
    expect(JSON.stringify(sibling.params)).not.toContain(SIG);
    expect(sibling.report.dropped[0]?.kind).toBe('thinking');
  });

  it('drops thinking without a credential instead of converting it to text', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'thinking', text: 'deepseek musing' },
          { type: 'text', text: 'Hello.' },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Go on.' }] },
    ];
    const { params, report } = renderAnthropic({ request: request(messages), vendor: 'sim-anthropic' });
    expect(params.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    expect(JSON.stringify(params)).not.toContain('deepseek musing');
    expect(report.dropped).toHaveLength(1);
    expect(report.dropped[0]?.detail).toMatch(/without a credential dropped/);
    expect(params.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
  });

  it('sends redacted thinking only back to its minter', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        parts: [
          {
            type: 'redacted_thinking',
            data: 'REDACTED==',
            vendor: 'sim-anthropic',
            model: 'claude-sim-sonnet',
          },
          { type: 'text', text: 'Done.' },
        ],
      },
    ];
    const own = renderAnthropic({ request: request(messages), vendor: 'sim-anthropic' });
    expect(own.params.messages[1]?.content).toEqual([
      { type: 'redacted_thinking', data: 'REDACTED==' },
      { type: 'text', text: 'Done.' },
    ]);
    const other = renderAnthropic({
      request: request(messages, { model: 'claude-haiku-4-5' }),
      vendor: 'anthropic',
    });
    expect(JSON.stringify(other.params)).not.toContain('REDACTED==');
    expect(other.report.dropped).toEqual([
      {
        kind: 'redacted_thinking',
        detail:
          'redacted thinking block from claude-sim-sonnet dropped: it is bound to sim-anthropic/claude-sim-sonnet, not anthropic/claude-haiku-4-5',
      },
    ]);
  });

  it('merges tool results with adjacent user text into one user message, results first', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'Fix it.' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'call_a', name: 'read_file', argsText: '{"path":"a.ts"}' },
          { type: 'tool_call', id: 'call_b', name: 'read_file', argsText: '{"path":' },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Also check b.' },
          { type: 'tool_result', callId: 'call_a', content: 'A', isError: false },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'tool_result', callId: 'call_b', content: 'invalid JSON in arguments', isError: true },
        ],
      },
    ];
    const { params, report } = renderAnthropic({
      request: request(messages, { thinking: false }),
      vendor: 'sim-anthropic',
    });
    expect(params.messages).toHaveLength(3);
    expect(params.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'call_b', name: 'read_file', input: {} },
    ]);
    expect(params.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_a', content: 'A', is_error: false },
        { type: 'tool_result', tool_use_id: 'call_b', content: 'invalid JSON in arguments', is_error: true },
        { type: 'text', text: 'Also check b.' },
      ],
    });
    expect(report.dropped).toEqual([
      {
        kind: 'tool_args',
        detail:
          'arguments of tool call read_file (call_b) are not a JSON object; sent as {} (original text kept in the trajectory)',
      },
    ]);
    expect(params.thinking).toBeUndefined();
  });

  it('skips thinking when max_tokens cannot hold the minimum budget, and for models that do not reason', () => {
    const small = renderAnthropic({
      request: request(toolRound.slice(0, 1), { maxTokens: 1024 }),
      vendor: 'sim-anthropic',
    });
    expect(small.params.thinking).toBeUndefined();
    expect(small.report.dropped[0]?.detail).toMatch(/max_tokens 1024 leaves no room/);
    const fits = renderAnthropic({
      request: request(toolRound.slice(0, 1), { maxTokens: 1500 }),
      vendor: 'sim-anthropic',
    });
    expect(fits.params.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const unknown = renderAnthropic({
      request: request(toolRound.slice(0, 1), { model: 'claude-3-haiku' }),
      vendor: 'anthropic',
    });
    expect(unknown.params.thinking).toBeUndefined();
    const off = renderAnthropic({
      request: request(toolRound.slice(0, 1), { thinking: false }),
      vendor: 'sim-anthropic',
    });
    expect(off.params.thinking).toBeUndefined();
    expect(off.report.dropped).toEqual([]);
  });

  it('omits an empty system prompt and an empty tool list', () => {
    const { params } = renderAnthropic({
      request: request(toolRound.slice(0, 1), { system: '', tools: [], thinking: false }),
      vendor: 'sim-anthropic',
    });
    expect(params).not.toHaveProperty('system');
    expect(params).not.toHaveProperty('tools');
  });
});

describe('renderAnthropic over a growing history (each message rendered once per target)', () => {
  it('renders the same messages again with the same blocks and the same report', () => {
    const first = renderAnthropic({ request: request(toolRound), vendor: 'sim-anthropic' });
    const again = renderAnthropic({ request: request(toolRound), vendor: 'sim-anthropic' });
    expect(again.params).toEqual(first.params);
    expect(again.report).toEqual(first.report);
  });

  it('does not carry a rendering over to another target: the sibling model drops the signature the minter kept', () => {
    renderAnthropic({ request: request(toolRound), vendor: 'sim-anthropic' });
    const sibling = renderAnthropic({
      request: request(toolRound, { model: 'claude-sim-haiku' }),
      vendor: 'sim-anthropic',
    });
    expect(sibling.params.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
    ]);
    expect(sibling.report.dropped.map((d) => d.kind)).toContain('thinking');
    const noted = renderAnthropic({
      request: request(toolRound, { model: 'claude-sim-haiku' }),
      vendor: 'sim-anthropic',
      handling: { foreignThinking: 'note', naive: false },
    });
    expect((noted.params.messages[1]!.content as { type: string }[])[0]!.type).toBe('text');
    const back = renderAnthropic({ request: request(toolRound), vendor: 'sim-anthropic' });
    expect((back.params.messages[1]!.content as { type: string }[])[0]).toEqual({
      type: 'thinking',
      thinking: 'Read first.',
      signature: SIG,
    });
  });

  it('keeps tool results first in a user message that also carries text', () => {
    const messages: Message[] = [
      ...toolRound.slice(0, 2),
      { role: 'user', parts: [{ type: 'text', text: 'Also note this.' }] },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'toolu_1', content: 'ok', isError: false }] },
    ];
    const { params } = renderAnthropic({ request: request(messages), vendor: 'sim-anthropic' });
    expect((params.messages[2]!.content as { type: string }[]).map((b) => b.type)).toEqual([
      'tool_result',
      'text',
    ]);
  });
});
