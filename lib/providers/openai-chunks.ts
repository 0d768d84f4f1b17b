import type OpenAI from 'openai';
import { mapOpenAIFinishReason } from './stop-reasons';
import type { EventTranslator } from './translate-stream';
import type { StreamPart } from './types';

/** DeepSeek and llama.cpp stream reasoning as `reasoning_content`; newer vLLM as `reasoning`. */
type DeltaWithReasoning = OpenAI.ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

interface ToolState {
  block: number;
  id?: string;
  started: boolean;
  /** Argument text that arrived before the call's name (some local servers do this). */
  pending: string;
}

/**
 * Turns Chat Completions chunks into stream parts. The chat format has no blocks, so block
 * indexes are assigned in order of first appearance: reasoning, text, each tool call. The
 * finish is held to the end so the usage chunk (sent after it) precedes it; open blocks are
 * stopped when the finish reason arrives, and only then: a cut stream leaves them open.
 */
/**
 * A streamed record that is JSON but not a Chat Completions chunk (no `choices` array): the
 * upstream speaks another API (Anthropic Messages, Ollama's native /api/chat, the Responses API…)
 * at this base URL. Retrying would get the same answer, so the classifier reads it by its name
 * as a request that cannot work as configured (not a cut stream); the message says where the
 * answer came from, what arrived and what was expected.
 */
export class UpstreamFormatError extends Error {
  override readonly name = 'UpstreamFormatError';

  constructor(chunk: unknown, baseURL: string) {
    const seen = JSON.stringify(chunk)?.slice(0, 160) ?? String(chunk);
    super(
      `the upstream at ${baseURL} answered in a format the openai dialect does not speak: a streamed record has no "choices" array (${seen}). ` +
        'Point provider.baseUrl at its OpenAI-compatible endpoint (often …/v1), or pick the vendor whose API it speaks',
    );
  }
}

/** `baseURL` is where the chunks come from, for the error when they are not Chat Completions chunks. */
export function createOpenAITranslator(options: {
  baseURL: string;
}): EventTranslator<OpenAI.ChatCompletionChunk> {
  let started = false;
  let nextBlock = 0;
  let thinkingBlock: number | undefined;
  let textBlock: number | undefined;
  const tools = new Map<number, ToolState>();
  const open: number[] = [];
  let finish: StreamPart | undefined;

  const openBlock = (): number => {
    const index = nextBlock++;
    open.push(index);
    return index;
  };

  const toolParts = (
    chunkId: string,
    call: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall,
  ): StreamPart[] => {
    let tool = tools.get(call.index);
    if (!tool) {
      tool = { block: openBlock(), started: false, pending: '' };
      tools.set(call.index, tool);
    }
    if (call.id) tool.id ??= call.id;
    const parts: StreamPart[] = [];
    const name = call.function?.name;
    if (!tool.started && name) {
      tool.started = true;
      // A few local servers omit ids; the response id keeps a made-up one unique.
      const id = tool.id ?? `${chunkId || 'call'}_${call.index}`;
      parts.push({ type: 'tool-call-start', index: tool.block, id, name });
    }
    const args = tool.pending + (call.function?.arguments ?? '');
    if (!tool.started) {
      tool.pending = args;
    } else if (args) {
      tool.pending = '';
      parts.push({ type: 'tool-call-delta', index: tool.block, argsText: args });
    }
    return parts;
  };

  // The model sent a refusal (`delta.refusal`) instead of an answer.
  let refused = false;

  return {
    push(chunk) {
      if (!Array.isArray((chunk as { choices?: unknown }).choices))
        throw new UpstreamFormatError(chunk, options.baseURL);
      const parts: StreamPart[] = [];
      if (!started) {
        started = true;
        parts.push({ type: 'response-start', id: chunk.id, model: chunk.model });
      }
      const choice = chunk.choices.find((c) => c.index === 0);
      if (choice) {
        const delta = (choice.delta ?? {}) as DeltaWithReasoning;
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) {
          thinkingBlock ??= openBlock();
          parts.push({ type: 'thinking-delta', index: thinkingBlock, text: reasoning });
        }
        // A refusal is the model's own words; the engine shows it as text, and the turn ends as a refusal.
        if (delta.refusal) refused = true;
        const text = (delta.content ?? '') + (delta.refusal ?? '');
        if (text) {
          textBlock ??= openBlock();
          parts.push({ type: 'text-delta', index: textBlock, text });
        }
        for (const call of delta.tool_calls ?? []) parts.push(...toolParts(chunk.id, call));
        if (choice.finish_reason) {
          for (const index of open.splice(0)) parts.push({ type: 'block-stop', index });
          const reason = choice.finish_reason;
          finish = {
            type: 'finish',
            stopReason:
              refused && reason === 'stop' ? 'refusal' : mapOpenAIFinishReason({ finishReason: reason }),
            vendorStopReason: reason,
          };
        }
      }
      if (chunk.usage) {
        // prompt_tokens includes the cached prefix; DeepSeek names its hits prompt_cache_hit_tokens.
        const deepseek = chunk.usage as { prompt_cache_hit_tokens?: number };
        const read = chunk.usage.prompt_tokens_details?.cached_tokens ?? deepseek.prompt_cache_hit_tokens;
        const part: StreamPart = {
          type: 'usage',
          inputTokens: chunk.usage.prompt_tokens,
          outputTokens: chunk.usage.completion_tokens,
        };
        if (read != null) part.cachedInput = { read, written: 0 };
        parts.push(part);
      }
      return parts;
    },
    end() {
      const parts = finish ? [finish] : [];
      finish = undefined;
      return parts;
    },
  };
}
