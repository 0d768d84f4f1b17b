import { invalidRequest, isRecord } from '../rejection';
import { parseTextFormat } from '../answer-format';
import type { PolicyAnswerFormat, PolicyTool } from '../types';

/** A Responses API request (`POST /v1/responses`), shape-checked as the vendor checks it. */
export interface ResponsesRequest {
  model: string;
  /** The input items as sent (a string input is one user message). */
  input: Record<string, unknown>[];
  instructions: string;
  tools: PolicyTool[];
  maxOutputTokens: number | undefined;
  stream: boolean;
  /** Whether the vendor keeps the response for a later `previous_response_id` (default true). */
  store: boolean;
  previousResponseId: string | undefined;
  /** `include: ["reasoning.encrypted_content"]`: reasoning items come back sealed. */
  includeEncrypted: boolean;
  /** `reasoning.summary` asked for: reasoning summaries are streamed. */
  summary: boolean;
  /** `text.format` `{type: 'json_schema'}`: the answer must match its schema. */
  answerFormat: PolicyAnswerFormat | undefined;
}

const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning'];
const ROLES = ['user', 'assistant', 'system', 'developer'];

function missing(param: string): never {
  throw invalidRequest(`Missing required parameter: '${param}'.`, {
    code: 'missing_required_parameter',
    param,
  });
}

function invalidType(param: string, expected: string, got: unknown): never {
  throw invalidRequest(
    `Invalid type for '${param}': expected ${expected}, but got ${Array.isArray(got) ? 'array' : typeof got} instead.`,
    {
      code: 'invalid_type',
      param,
    },
  );
}

/** Every input item checked for the fields its type needs; a string input becomes one user message. */
function parseInput(value: unknown): Record<string, unknown>[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [{ type: 'message', role: 'user', content: value }];
  if (!Array.isArray(value)) invalidType('input', 'one of a string or array of input items', value);
  return value.map((raw, i) => {
    const where = `input[${i}]`;
    if (!isRecord(raw)) invalidType(where, 'an object', raw);
    const type = raw.type ?? (raw.role !== undefined ? 'message' : undefined);
    if (typeof type !== 'string') missing(`${where}.type`);
    if (!ITEM_TYPES.includes(type)) {
      throw invalidRequest(
        `Invalid value: '${type}'. Supported values are: ${ITEM_TYPES.map((t) => `'${t}'`).join(', ')}.`,
        {
          code: 'invalid_value',
          param: `${where}.type`,
        },
      );
    }
    switch (type) {
      case 'message':
        if (typeof raw.role !== 'string' || !ROLES.includes(raw.role)) missing(`${where}.role`);
        if (raw.content === undefined) missing(`${where}.content`);
        if (typeof raw.content !== 'string' && !Array.isArray(raw.content))
          invalidType(`${where}.content`, 'one of a string or array of input items', raw.content);
        break;
      case 'function_call':
        if (typeof raw.call_id !== 'string') missing(`${where}.call_id`);
        if (typeof raw.name !== 'string') missing(`${where}.name`);
        if (typeof raw.arguments !== 'string') missing(`${where}.arguments`);
        break;
      case 'function_call_output':
        if (typeof raw.call_id !== 'string') missing(`${where}.call_id`);
        if (typeof raw.output !== 'string') missing(`${where}.output`);
        break;
      case 'reasoning':
        if (typeof raw.id !== 'string') missing(`${where}.id`);
        if (!Array.isArray(raw.summary)) missing(`${where}.summary`);
        break;
    }
    return { ...raw, type };
  });
}

/** Function tools are flat here (`{type, name, parameters}`); Chat's nested `function` is a 400. */
function parseTools(value: unknown): PolicyTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalidType('tools', 'an array of objects', value);
  return value.map((tool, i) => {
    if (!isRecord(tool)) invalidType(`tools[${i}]`, 'an object', tool);
    if (tool.type !== 'function') missing(`tools[${i}].type`);
    if (typeof tool.name !== 'string') missing(`tools[${i}].name`);
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
      throw invalidRequest(
        `Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        {
          code: 'invalid_value',
          param: `tools[${i}].name`,
        },
      );
    }
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema: isRecord(tool.parameters) ? tool.parameters : {},
    };
  });
}

function parseMaxOutputTokens(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    invalidType('max_output_tokens', 'an integer', value);
  if (value < 16) {
    throw invalidRequest(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${value} instead.`,
      {
        code: 'integer_below_min_value',
        param: 'max_output_tokens',
      },
    );
  }
  return value;
}

export function parseResponsesRequest(options: { body: string }): ResponsesRequest {
  let body: unknown;
  try {
    body = JSON.parse(options.body);
  } catch {
    throw invalidRequest(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    );
  }
  if (!isRecord(body)) throw invalidRequest('Invalid request body: expected a JSON object.');
  if (typeof body.model !== 'string' || body.model.length === 0) missing('model');
  if (body.messages !== undefined)
    throw invalidRequest('Unrecognized request argument supplied: messages', { param: 'messages' });
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null && typeof previous !== 'string')
    invalidType('previous_response_id', 'a string', previous);
  const include = Array.isArray(body.include) ? body.include : [];
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  return {
    model: body.model,
    input: parseInput(body.input),
    instructions: typeof body.instructions === 'string' ? body.instructions : '',
    tools: parseTools(body.tools),
    maxOutputTokens: parseMaxOutputTokens(body.max_output_tokens),
    stream: body.stream === true,
    store: body.store !== false,
    previousResponseId: typeof previous === 'string' ? previous : undefined,
    includeEncrypted: include.includes('reasoning.encrypted_content'),
    summary: typeof reasoning.summary === 'string' && reasoning.summary !== 'none',
    answerFormat: parseTextFormat(body.text),
  };
}
