import { describe, expect, it } from 'vitest';
import type { OutputPlan } from '../output-plan';
import { anthropicStreamFrames, type AnthropicResponseInput } from './render-response';

/** Each record as the generic writer serializes it: the oracle for the hand-written deltas. */
const generic = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

const TRICKY = [
  'plain',
  ' leading space',
  'quote " and \\ backslash',
  'new\nline\ttab',
  'control \u0001\u001f',
  'unicode café 日本 \u{1F600}',
  'lone \uD800 surrogate',
  '{"partial": [1, 2',
  '</script>',
  '',
];

describe('anthropicStreamFrames', () => {
  it('writes every content delta byte for byte as the generic record writer would', () => {
    const chunks = TRICKY.map((text) => ({ text, tokens: 1 }));
    const plan: OutputPlan = {
      blocks: [
        { kind: 'thinking', text: TRICKY.join(''), chunks },
        { kind: 'text', text: TRICKY.join(''), chunks },
        { kind: 'tool_call', name: 'read_file', text: TRICKY.join(''), chunks },
      ],
      outputTokens: 30,
      cut: false,
    };
    const input: AnthropicResponseInput = {
      id: 'msg_1',
      model: 'claude-sim-sonnet',
      plan,
      cache: { read: 0, written: 0, uncached: 10 },
      stopReason: 'tool_use',
      toolIds: ['toolu_1'],
      signatures: ['sig'],
      pacing: { headersMs: 1, firstTokenMs: 2, forTokens: (n) => n * 3 },
    };
    const deltas = [...anthropicStreamFrames(input)].filter(
      (f) => f.text.startsWith('event: content_block_delta') && !f.text.includes('signature_delta'),
    );
    const field = {
      thinking: ['thinking_delta', 'thinking'],
      text: ['text_delta', 'text'],
      tool_call: ['input_json_delta', 'partial_json'],
    } as const;
    const expected = plan.blocks.flatMap((block, index) =>
      block.chunks.map((chunk) => {
        const [type, key] = field[block.kind];
        return generic('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type, [key]: chunk.text },
        });
      }),
    );
    expect(deltas.map((d) => d.text)).toEqual(expected);
    expect(deltas.every((d) => d.delayMs === 3)).toBe(true);
  });
});
