import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError } from '@/lib/engine/recovery/classify';
import { createOpenAITranslator, UpstreamFormatError } from './openai-chunks';

type Delta = OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning?: string };

function chunk(delta: Delta, finish: string | null = null): OpenAI.ChatCompletionChunk {
  return {
    id: 'resp_1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'local-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish as never }],
  };
}

describe('createOpenAITranslator', () => {
  it('holds argument text that arrives before the name, and makes up a unique id when none is sent', () => {
    const t = createOpenAITranslator({ baseURL: 'http://ollama.test:11434' });
    const parts = [
      ...t.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] })),
      ...t.push(chunk({ tool_calls: [{ index: 0, function: { name: 'run_check', arguments: ':1}' } }] })),
      ...t.push(chunk({}, 'tool_calls')),
      ...t.end(),
    ];
    expect(parts).toEqual([
      { type: 'response-start', id: 'resp_1', model: 'local-model' },
      { type: 'tool-call-start', index: 0, id: 'resp_1_0', name: 'run_check' },
      { type: 'tool-call-delta', index: 0, argsText: '{"a":1}' },
      { type: 'block-stop', index: 0 },
      { type: 'finish', stopReason: 'tool_use', vendorStopReason: 'tool_calls' },
    ]);
  });

  it('reads vLLM `reasoning`, maps content_filter and unknown finish reasons', () => {
    const t = createOpenAITranslator({ baseURL: 'http://ollama.test:11434' });
    t.push(chunk({ reasoning: 'hmm' }));
    expect(t.push(chunk({}, 'content_filter'))).toEqual([{ type: 'block-stop', index: 0 }]);
    expect(t.end()).toEqual([{ type: 'finish', stopReason: 'refusal', vendorStopReason: 'content_filter' }]);
    const u = createOpenAITranslator({ baseURL: 'http://ollama.test:11434' });
    u.push(chunk({}, 'eos'));
    expect(u.end()).toEqual([{ type: 'finish', stopReason: 'other', vendorStopReason: 'eos' }]);
  });

  it('owes nothing at the end of a stream that never finished', () => {
    const t = createOpenAITranslator({ baseURL: 'http://ollama.test:11434' });
    t.push(chunk({ content: 'partial' }));
    expect(t.end()).toEqual([]);
  });

  it('says the upstream at its base URL answers in a format the dialect does not speak, and the classifier does not retry it', () => {
    const t = createOpenAITranslator({ baseURL: 'http://ollama.test:11434' });
    const native = {
      model: 'llama3',
      created_at: '2026-01-01T00:00:00Z',
      message: { role: 'assistant', content: 'hi' },
      done: false,
    };
    const push = () => t.push(native as unknown as OpenAI.ChatCompletionChunk);
    expect(push).toThrow(UpstreamFormatError);
    expect(push).toThrow(
      /^the upstream at http:\/\/ollama.test:11434 answered in a format the openai dialect does not speak: a streamed record has no "choices" array \(\{"model":"llama3"/,
    );
    expect(classifyError(new UpstreamFormatError(native, 'http://ollama.test:11434'))).toMatchObject({
      category: 'invalid_input',
      retryable: false,
    });
    // The quoted record's own words (here "context window") do not decide.
    expect(
      classifyError(new UpstreamFormatError({ error: 'context window too small' }, 'http://x.test')),
    ).toMatchObject({
      category: 'invalid_input',
      retryable: false,
    });
  });
});
