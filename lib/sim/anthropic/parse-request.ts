import type { Message, Part } from '@/lib/protocol';
import { invalidRequest, isRecord } from '../rejection';
import { parseToolChoice } from '../answer-format';
import type { PolicyTool, PolicyToolChoice } from '../types';

/** An Anthropic Messages request, checked field by field as the vendor's schema does. */
export interface AnthropicRequest {
  model: string;
  maxTokens: number;
  stream: boolean;
  system: string;
  messages: Message[];
  tools: PolicyTool[];
  thinking: boolean;
  budgetTokens: number | undefined;
  /** Whether (and which) tool the model must call. */
  toolChoice: PolicyToolChoice;
  /** The body as sent, for what the neutral view leaves out (the cache breakpoints). */
  raw: Record<string, unknown>;
}

const BLOCK_TAGS = "'text', 'image', 'document', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result'";

function textOf(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalidRequest(`${where}: Input should be a valid string`);
  const texts: string[] = [];
  value.forEach((block, i) => {
    if (isRecord(block) && typeof block.text === 'string') texts.push(block.text);
    else if (isRecord(block) && (block.type === 'image' || block.type === 'document'))
      texts.push(`[${block.type}]`);
    else throw invalidRequest(`${where}.${i}.text: Field required`);
  });
  return texts.join('\n');
}

function parseBlock(block: unknown, where: string): Part {
  if (!isRecord(block))
    throw invalidRequest(`${where}: Input should be a valid dictionary or object to extract fields from`);
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw invalidRequest(`${where}.text: Field required`);
      if (block.text.length === 0) throw invalidRequest('messages: text content blocks must be non-empty');
      return { type: 'text', text: block.text };
    case 'image':
    case 'document':
      return { type: 'text', text: `[${block.type}]` };
    case 'thinking': {
      if (typeof block.thinking !== 'string')
        throw invalidRequest(`${where}.thinking.thinking: Field required`);
      if (typeof block.signature !== 'string')
        throw invalidRequest(`${where}.thinking.signature: Field required`);
      return {
        type: 'thinking',
        text: block.thinking,
        credential: { vendor: 'sim-anthropic', model: '', signature: block.signature },
      };
    }
    case 'redacted_thinking':
      if (typeof block.data !== 'string')
        throw invalidRequest(`${where}.redacted_thinking.data: Field required`);
      return { type: 'redacted_thinking', data: block.data, vendor: 'sim-anthropic', model: '' };
    case 'tool_use': {
      if (typeof block.id !== 'string') throw invalidRequest(`${where}.tool_use.id: Field required`);
      if (typeof block.name !== 'string') throw invalidRequest(`${where}.tool_use.name: Field required`);
      if (!isRecord(block.input))
        throw invalidRequest(`${where}.tool_use.input: Input should be a valid dictionary`);
      return {
        type: 'tool_call',
        id: block.id,
        name: block.name,
        argsText: JSON.stringify(block.input),
        args: block.input,
      };
    }
    case 'tool_result': {
      if (typeof block.tool_use_id !== 'string')
        throw invalidRequest(`${where}.tool_result.tool_use_id: Field required`);
      const content =
        block.content === undefined ? '' : textOf(block.content, `${where}.tool_result.content`);
      return { type: 'tool_result', callId: block.tool_use_id, content, isError: block.is_error === true };
    }
    default:
      throw invalidRequest(
        `${where}.type: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags: ${BLOCK_TAGS}`,
      );
  }
}

function parseMessages(value: unknown): Message[] {
  if (value === undefined) throw invalidRequest('messages: Field required');
  if (!Array.isArray(value)) throw invalidRequest('messages: Input should be a valid list');
  return value.map((raw, i): Message => {
    const where = `messages.${i}`;
    if (!isRecord(raw))
      throw invalidRequest(`${where}: Input should be a valid dictionary or object to extract fields from`);
    if (raw.role !== 'user' && raw.role !== 'assistant')
      throw invalidRequest(`${where}.role: Input should be 'user' or 'assistant'`);
    if (typeof raw.content === 'string') {
      if (raw.content.length === 0 && i < value.length - 1) {
        throw invalidRequest(
          `${where}: all messages must have non-empty content except for the optional final assistant message`,
        );
      }
      return { role: raw.role, parts: raw.content.length > 0 ? [{ type: 'text', text: raw.content }] : [] };
    }
    if (!Array.isArray(raw.content)) throw invalidRequest(`${where}.content: Field required`);
    if (raw.content.length === 0 && !(raw.role === 'assistant' && i === value.length - 1)) {
      throw invalidRequest(
        `${where}: all messages must have non-empty content except for the optional final assistant message`,
      );
    }
    return {
      role: raw.role,
      parts: raw.content.map((block, j) => parseBlock(block, `${where}.content.${j}`)),
    };
  });
}

function parseTools(value: unknown): PolicyTool[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidRequest('tools: Input should be a valid list');
  return value.map((tool, i) => {
    if (!isRecord(tool))
      throw invalidRequest(`tools.${i}: Input should be a valid dictionary or object to extract fields from`);
    if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) {
      throw invalidRequest(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    }
    if (!isRecord(tool.input_schema)) throw invalidRequest(`tools.${i}.custom.input_schema: Field required`);
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema: tool.input_schema,
    };
  });
}

function parseThinking(
  body: Record<string, unknown>,
  maxTokens: number,
): { enabled: boolean; budget: number | undefined } {
  const thinking = body.thinking;
  if (thinking === undefined || thinking === null) return { enabled: false, budget: undefined };
  if (!isRecord(thinking))
    throw invalidRequest('thinking: Input should be a valid dictionary or object to extract fields from');
  if (thinking.type === 'disabled') return { enabled: false, budget: undefined };
  if (thinking.type === 'adaptive') return { enabled: true, budget: undefined };
  if (thinking.type !== 'enabled') {
    throw invalidRequest(
      `thinking: Input tag '${String(thinking.type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`,
    );
  }
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget))
    throw invalidRequest('thinking.enabled.budget_tokens: Field required');
  if (budget < 1024)
    throw invalidRequest('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (maxTokens <= budget) {
    throw invalidRequest(
      '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
    );
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    throw invalidRequest(
      '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility',
    );
  }
  if (isRecord(body.tool_choice) && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool')) {
    throw invalidRequest('Thinking may not be enabled when tool_choice forces tool use.');
  }
  return { enabled: true, budget };
}

/** Parses the JSON body; the model's existence is checked by the caller (a 404, not a 400). */
export function parseAnthropicRequest(options: { body: string }): AnthropicRequest {
  let body: unknown;
  try {
    body = JSON.parse(options.body);
  } catch {
    throw invalidRequest(
      'There was an error parsing the body of your request. Please make sure your body is valid JSON.',
    );
  }
  if (!isRecord(body))
    throw invalidRequest('Input should be a valid dictionary or object to extract fields from');
  if (typeof body.model !== 'string' || body.model.length === 0)
    throw invalidRequest('model: Field required');
  const maxTokens = body.max_tokens;
  if (maxTokens === undefined) throw invalidRequest('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens))
    throw invalidRequest('max_tokens: Input should be a valid integer');
  if (maxTokens < 1) throw invalidRequest('max_tokens: Input should be greater than or equal to 1');
  const messages = parseMessages(body.messages);
  if (messages.length === 0) throw invalidRequest('messages: at least one message is required');
  const system = body.system === undefined ? '' : textOf(body.system, 'system');
  const tools = parseTools(body.tools);
  const thinking = parseThinking(body, maxTokens);
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw invalidRequest('stream: Input should be a valid boolean');
  return {
    model: body.model,
    maxTokens,
    stream: body.stream === true,
    system,
    messages,
    tools,
    thinking: thinking.enabled,
    budgetTokens: thinking.budget,
    toolChoice: parseToolChoice(body.tool_choice, tools),
    raw: body,
  };
}
