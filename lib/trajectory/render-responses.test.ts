import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import type { ModelRequest } from './model-request';
import { renderResponses } from './render-responses';

const OWN = { vendor: 'sim-openai-responses', model: 'gpt-sim-5', signature: 'gAAAAAB-own', item: 'rs_own' };
const CLAUDE = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', signature: 'sig-claude' };

const messages: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Fix it.' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'thinking', text: 'Claude looked.', credential: CLAUDE },
      { type: 'tool_call', id: 'toolu_1', name: 'list_files', argsText: '{}' },
    ],
  },
  { role: 'user', parts: [{ type: 'tool_result', callId: 'toolu_1', content: 'a.js', isError: false }] },
  {
    role: 'assistant',
    parts: [
      { type: 'thinking', text: 'Read a.js.', credential: OWN },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_call', id: 'call_2', name: 'read_file', argsText: '{"path":"a.js"}' },
    ],
  },
  { role: 'user', parts: [{ type: 'tool_result', callId: 'call_2', content: '1 line', isError: false }] },
];

const request: ModelRequest = {
  model: 'gpt-sim-5',
  system: 'Be careful.',
  messages,
  tools: [],
  maxTokens: 8,
  thinking: true,
};

describe('rendering for the Responses API', () => {
  it('by value: every message as input items, its own sealed reasoning back, Claude’s dropped', () => {
    const { params, report } = renderResponses({ request, vendor: 'sim-openai-responses' });
    expect(params.previous_response_id).toBeUndefined();
    expect(params.input).toEqual([
      { role: 'user', content: 'Fix it.' },
      { type: 'function_call', call_id: 'toolu_1', name: 'list_files', arguments: '{}' },
      { type: 'function_call_output', call_id: 'toolu_1', output: 'a.js' },
      {
        type: 'reasoning',
        id: 'rs_own',
        summary: [{ type: 'summary_text', text: 'Read a.js.' }],
        encrypted_content: 'gAAAAAB-own',
      },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'call_2', name: 'read_file', arguments: '{"path":"a.js"}' },
      { type: 'function_call_output', call_id: 'call_2', output: '1 line' },
    ]);
    expect(params).toMatchObject({
      instructions: 'Be careful.',
      store: true,
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 16,
    });
    expect(report.converted).toContain('5 × message sent by value');
    expect(report.dropped).toEqual([
      { kind: 'thinking', detail: expect.stringContaining('claude-sim-sonnet') },
    ]);
  });

  it('by reference: the prefix the vendor holds is named, only the messages after it are sent', () => {
    const { params, report } = renderResponses({
      request,
      vendor: 'sim-openai-responses',
      held: { responseId: 'resp_4', messages: 4 },
    });
    expect(params.previous_response_id).toBe('resp_4');
    expect(params.input).toEqual([{ type: 'function_call_output', call_id: 'call_2', output: '1 line' }]);
    expect(report.converted).toEqual(
      expect.arrayContaining([
        '4 × message held by sim-openai-responses/gpt-sim-5, sent by reference (previous_response_id)',
        '1 × message sent by value',
      ]),
    );
  });

  it('on another model its own reasoning is foreign too; naive sends every credential as a sealed item, as it was', () => {
    const other = renderResponses({
      request: { ...request, model: 'gpt-sim-5-mini' },
      vendor: 'sim-openai-responses',
    });
    expect(JSON.stringify(other.params.input)).not.toContain('gAAAAAB-own');
    const naive = renderResponses({
      request: { ...request, model: 'gpt-sim-5-mini' },
      vendor: 'sim-openai-responses',
      handling: { foreignThinking: 'drop', naive: true },
    });
    const sealed = (naive.params.input as { type?: string; encrypted_content?: string }[])
      .filter((i) => i.type === 'reasoning')
      .map((i) => i.encrypted_content);
    expect(sealed).toEqual(['sig-claude', 'gAAAAAB-own']);
  });

  it('keeps foreign thinking as a marked note when asked, never its seal', () => {
    const { params } = renderResponses({
      request,
      vendor: 'sim-openai-responses',
      handling: { foreignThinking: 'note', naive: false },
    });
    const text = JSON.stringify(params.input);
    expect(text).toContain('reasoning written by sim-anthropic/claude-sim-sonnet');
    expect(text).not.toContain('sig-claude');
  });
});
