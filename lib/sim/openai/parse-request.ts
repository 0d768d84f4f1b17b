import type { Message, Part } from '@/lib/protocol';
import { invalidRequest, isRecord } from '../rejection';
import { parseResponseFormat } from '../answer-format';
import type { PolicyAnswerFormat, PolicyTool } from '../types';

/** A Chat Completions request, checked as the vendor checks it. */
export interface OpenAIRequest {
  model: string;
  /** Output cap asked for, and the field it came in (for error wording); undefined: none. */
  maxTokens: number | undefined;
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  stream: boolean;
  includeUsage: boolean;
  system: string;
  messages: Message[];
  tools: PolicyTool[];
  /** `response_format` `{type: 'json_schema'}`: the answer must match its schema. */
  answerFormat: PolicyAnswerFormat | undefined;
  /** The wire messages, shape-checked, for the conversation rules that name wire indices. */
  wireMessages: Record<string, unknown>[];
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

function missing(param: string): never {
  throw invalidRequest(`Missing required parameter: '${param}'.`, {
    code: 'missing_required_parameter',
    param,
  });
}

function contentText(value: unknown, param: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) {
    throw invalidRequest(
      `Invalid type for '${param}': expected one of a string or array of objects, but got ${typeof value} instead.`,
      {
        code: 'invalid_type',
        param,
      },
    );
  }
  return value
    .map((part, i) => {
      if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
      if (isRecord(part) && typeof part.type === 'string') return `[${part.type}]`;
      return missing(`${param}[${i}].type`);
    })
    .join('\n');
}

/** Tool results carry no error flag in this dialect; the loop marks failures in the text. */
function looksLikeError(content: string): boolean {
  return /^\s*(\[?error\]?\b|tool error|failed\b)/i.test(content);
}

function parseToolCalls(value: unknown, i: number): Part[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalidRequest(
      `Invalid type for 'messages[${i}].tool_calls': expected an array, but got ${typeof value} instead.`,
      {
        code: 'invalid_type',
        param: `messages[${i}].tool_calls`,
      },
    );
  return value.map((call, j): Part => {
    const where = `messages[${i}].tool_calls[${j}]`;
    if (!isRecord(call)) missing(where);
    if (typeof call.id !== 'string') missing(`${where}.id`);
    if (!isRecord(call.function)) missing(`${where}.function`);
    if (typeof call.function.name !== 'string') missing(`${where}.function.name`);
    if (typeof call.function.arguments !== 'string') missing(`${where}.function.arguments`);
    const argsText = call.function.arguments;
    let args: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(argsText);
      if (isRecord(parsed)) args = parsed;
    } catch {
      args = undefined;
    }
    return { type: 'tool_call', id: call.id, name: call.function.name, argsText, ...(args ? { args } : {}) };
  });
}

/** Wire messages → neutral messages; system/developer text is lifted out, tool replies grouped. */
function parseMessages(value: unknown): { system: string; messages: Message[] } {
  if (value === undefined) missing('messages');
  if (!Array.isArray(value))
    throw invalidRequest(
      `Invalid type for 'messages': expected an array of objects, but got ${typeof value} instead.`,
      {
        code: 'invalid_type',
        param: 'messages',
      },
    );
  if (value.length === 0)
    throw invalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      {
        code: 'empty_array',
        param: 'messages',
      },
    );
  const system: string[] = [];
  const messages: Message[] = [];
  value.forEach((raw, i) => {
    if (!isRecord(raw))
      throw invalidRequest(
        `Invalid type for 'messages[${i}]': expected an object, but got ${typeof raw} instead.`,
        {
          code: 'invalid_type',
          param: `messages[${i}]`,
        },
      );
    if (raw.role === undefined) missing(`messages[${i}].role`);
    if (typeof raw.role !== 'string' || !ROLES.includes(raw.role)) {
      throw invalidRequest(
        `Invalid value: '${String(raw.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        {
          code: 'invalid_value',
          param: `messages[${i}].role`,
        },
      );
    }
    if (raw.role === 'system' || raw.role === 'developer') {
      if (raw.content === undefined) missing(`messages[${i}].content`);
      system.push(contentText(raw.content, `messages[${i}].content`));
    } else if (raw.role === 'user') {
      if (raw.content === undefined) missing(`messages[${i}].content`);
      messages.push({
        role: 'user',
        parts: [{ type: 'text', text: contentText(raw.content, `messages[${i}].content`) }],
      });
    } else if (raw.role === 'assistant') {
      const text = contentText(raw.content, `messages[${i}].content`);
      const calls = parseToolCalls(raw.tool_calls, i);
      if (text.length === 0 && calls.length === 0 && raw.content === undefined)
        missing(`messages[${i}].content`);
      messages.push({
        role: 'assistant',
        parts: [...(text.length > 0 ? [{ type: 'text' as const, text }] : []), ...calls],
      });
    } else {
      if (typeof raw.tool_call_id !== 'string') missing(`messages[${i}].tool_call_id`);
      const content = contentText(raw.content, `messages[${i}].content`);
      const part: Part = {
        type: 'tool_result',
        callId: raw.tool_call_id,
        content,
        isError: looksLikeError(content),
      };
      const prev = messages[messages.length - 1];
      const prevRaw: unknown = value[i - 1];
      if (prev && prev.role === 'user' && isRecord(prevRaw) && prevRaw.role === 'tool') prev.parts.push(part);
      else messages.push({ role: 'user', parts: [part] });
    }
  });
  return { system: system.join('\n\n'), messages };
}

function parseTools(value: unknown): PolicyTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalidRequest(
      `Invalid type for 'tools': expected an array of objects, but got ${typeof value} instead.`,
      { code: 'invalid_type', param: 'tools' },
    );
  return value.map((tool, i) => {
    if (!isRecord(tool)) missing(`tools[${i}]`);
    if (!isRecord(tool.function)) missing(`tools[${i}].function`);
    const fn = tool.function;
    if (typeof fn.name !== 'string') missing(`tools[${i}].function.name`);
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      throw invalidRequest(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        { code: 'invalid_value', param: `tools[${i}].function.name` },
      );
    }
    return {
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : '',
      inputSchema: isRecord(fn.parameters) ? fn.parameters : {},
    };
  });
}

function parseMaxTokens(body: Record<string, unknown>): Pick<OpenAIRequest, 'maxTokens' | 'maxTokensField'> {
  const field =
    body.max_completion_tokens !== undefined && body.max_completion_tokens !== null
      ? 'max_completion_tokens'
      : 'max_tokens';
  const value = body[field];
  if (value === undefined || value === null) return { maxTokens: undefined, maxTokensField: field };
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalidRequest(
      `Invalid type for '${field}': expected an integer, but got ${typeof value} instead.`,
      { code: 'invalid_type', param: field },
    );
  }
  if (value < 1)
    throw invalidRequest(
      `Invalid '${field}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      {
        code: 'integer_below_min_value',
        param: field,
      },
    );
  return { maxTokens: value, maxTokensField: field };
}

/** Parses the JSON body; the model's existence is checked by the caller (a 404). */
export function parseOpenAIRequest(options: { body: string }): OpenAIRequest {
  let body: unknown;
  try {
    body = JSON.parse(options.body);
  } catch {
    throw invalidRequest(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    );
  }
  if (!isRecord(body)) throw invalidRequest('Invalid request body: expected a JSON object.');
  if (typeof body.model !== 'string' || body.model.length === 0)
    throw invalidRequest('you must provide a model parameter');
  const { system, messages } = parseMessages(body.messages);
  const stream = body.stream === true;
  if (body.stream_options !== undefined && body.stream_options !== null && !stream) {
    throw invalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", {
      param: 'stream_options',
    });
  }
  const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
  const wireMessages = (body.messages as unknown[]).filter(isRecord);
  return {
    model: body.model,
    ...parseMaxTokens(body),
    stream,
    includeUsage,
    system,
    messages,
    tools: parseTools(body.tools),
    answerFormat: parseResponseFormat(body.response_format),
    wireMessages,
  };
}
