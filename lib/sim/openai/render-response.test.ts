import { describe, expect, it } from 'vitest';
import type { OutputPlan } from '../output-plan';
import { openaiStreamFrames, type OpenAIResponseInput } from './render-response';

const TRICKY = [
  'plain',
  ' quote " and \\ backslash',
  'new\nline',
  'unicode café \u{1F600}',
  'lone \uDC00',
  '{"partial": [1',
];

/** The record each chunk must be: the whole object serialized at once, as the oracle. */
function reference(input: OpenAIResponseInput, choices: unknown[], usage?: unknown): string {
  return `data: ${JSON.stringify({
    id: input.id,
    object: 'chat.completion.chunk',
    created: input.created,
    model: input.model,
    service_tier: 'default',
    system_fingerprint: input.systemFingerprint,
    choices,
    ...(input.includeUsage ? { usage: usage ?? null } : {}),
  })}\n\n`;
}

describe('openaiStreamFrames', () => {
  for (const includeUsage of [false, true]) {
    it(`writes each chunk byte for byte as serializing the whole object would (usage ${includeUsage ? 'on' : 'off'})`, () => {
      const chunks = TRICKY.map((text) => ({ text, tokens: 1 }));
      const plan: OutputPlan = {
        blocks: [
          { kind: 'thinking', text: TRICKY.join(''), chunks },
          { kind: 'text', text: TRICKY.join(''), chunks },
          { kind: 'tool_call', name: 'read_file', text: TRICKY.join(''), chunks },
        ],
        outputTokens: 18,
        cut: false,
      };
      const input: OpenAIResponseInput = {
        id: 'chatcmpl-"x"',
        created: 1735689600,
        model: 'gpt-sim-4o',
        systemFingerprint: 'fp_1',
        plan,
        promptTokens: 7,
        cache: { read: 0, written: 0, uncached: 7 },
        finishReason: 'tool_calls',
        callIds: ['call_1'],
        includeUsage,
        pacing: { headersMs: 1, firstTokenMs: 2, forTokens: (n) => n },
      };
      const frames = [...openaiStreamFrames(input)].map((f) => f.text);
      const choice = (delta: unknown, finish: string | null = null): unknown[] => [
        { index: 0, delta, logprobs: null, finish_reason: finish },
      ];
      expect(frames[0]).toBe(reference(input, choice({ role: 'assistant', content: '', refusal: null })));
      expect(frames[1]).toBe(reference(input, choice({ reasoning_content: TRICKY[0] })));
      expect(frames[1 + TRICKY.length]).toBe(reference(input, choice({ content: TRICKY[0] })));
      const opening = {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '' },
      };
      expect(frames[1 + 2 * TRICKY.length]).toBe(reference(input, choice({ tool_calls: [opening] })));
      expect(frames[2 + 2 * TRICKY.length]).toBe(
        reference(input, choice({ tool_calls: [{ index: 0, function: { arguments: TRICKY[1] } }] })),
      );
      const tail = frames.slice(includeUsage ? -3 : -2);
      expect(tail[0]).toBe(reference(input, choice({}, 'tool_calls')));
      if (includeUsage) expect(tail[1]).toMatch(/^data: \{.*"choices":\[\],"usage":\{"prompt_tokens":7,/);
      expect(tail.at(-1)).toBe('data: [DONE]\n\n');
    });
  }
});
