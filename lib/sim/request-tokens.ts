import type { Message } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';
import { messageTokens, requestTokens, toolTokens, type SizedTool } from '@/lib/tokens/request-tokens';
import type { PolicyRequest } from './types';

export function countMessageTokens(message: Message): number {
  return messageTokens(message, countTokens);
}

/**
 * The prompt size a simulated vendor reports as input tokens and checks against the model's
 * window: the shared request structure (lib/tokens) over the exact tokenizer. Both dialects
 * use it over the same neutral view, so a takeover keeps sizes stable.
 */
export function countRequestTokens(request: Pick<PolicyRequest, 'system' | 'messages' | 'tools'>): number {
  let total = requestTokens({ system: request.system, messages: request.messages }, countTokens);
  for (const tool of request.tools) total += exactToolTokens(tool);
  return total;
}

/** The last count made for each tool name, with the definition it was made for. */
const toolCounts = new Map<string, { description: string; inputSchema: unknown; tokens: number }>();
const TOOL_COUNTS_LIMIT = 256;

/**
 * A tool's tokens, as `toolTokens` counts them. Every request of a run carries the same tool
 * definitions, freshly parsed: comparing one with the definition counted last time is a walk
 * of a few dozen values, where counting again serialises its schema to JSON and looks the text
 * up. Same key order is required, as the serialised text depends on it.
 */
export function exactToolTokens(tool: SizedTool): number {
  const last = toolCounts.get(tool.name);
  if (last && last.description === tool.description && sameJson(last.inputSchema, tool.inputSchema))
    return last.tokens;
  const tokens = toolTokens(tool, countTokens);
  if (toolCounts.size >= TOOL_COUNTS_LIMIT) toolCounts.clear();
  toolCounts.set(tool.name, { description: tool.description, inputSchema: tool.inputSchema, tokens });
  return tokens;
}

/** Equal JSON values that serialise to the same text (object keys in the same order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (
      key !== keysB[i] ||
      !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
    )
      return false;
  }
  return true;
}
