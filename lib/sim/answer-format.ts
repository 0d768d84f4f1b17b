import { invalidRequest, isRecord } from './rejection';
import type { PolicyAnswerFormat, PolicyTool, PolicyToolChoice } from './types';

/**
 * The answer formats the simulated vendors take, checked as the real APIs check them: OpenAI
 * Chat's `response_format` and the Responses API's `text.format` (a JSON Schema with a name,
 * and in strict mode a schema that closes every object and requires every property), and
 * Anthropic's `tool_choice` (a forced tool must be one of `tools`).
 */

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A JSON Schema format's fields: `param` is where they sit (`response_format.json_schema` or
 * `text.format`), `name` its context in strict-mode errors.
 */
export function parseJsonSchemaFormat(options: {
  value: Record<string, unknown>;
  param: string;
  schemaRequired: boolean;
}): PolicyAnswerFormat {
  const { value, param } = options;
  if (value.name === undefined)
    throw invalidRequest(`Missing required parameter: '${param}.name'.`, {
      code: 'missing_required_parameter',
      param: `${param}.name`,
    });
  if (typeof value.name !== 'string' || !NAME.test(value.name))
    throw invalidRequest(
      `Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      { code: 'invalid_value', param: `${param}.name` },
    );
  if (value.schema === undefined && options.schemaRequired)
    throw invalidRequest(`Missing required parameter: '${param}.schema'.`, {
      code: 'missing_required_parameter',
      param: `${param}.schema`,
    });
  if (value.schema !== undefined && !isRecord(value.schema))
    throw invalidRequest(
      `Invalid type for '${param}.schema': expected an object, but got ${typeName(value.schema)} instead.`,
      {
        code: 'invalid_type',
        param: `${param}.schema`,
      },
    );
  const schema = (value.schema ?? { type: 'object' }) as Record<string, unknown>;
  const strict = value.strict === true;
  if (strict) checkStrict(schema, value.name, param, []);
  return { name: value.name, schema, strict };
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Strict mode's rules, as OpenAI words them: every object closed, every property required. */
function checkStrict(schema: Record<string, unknown>, name: string, param: string, path: string[]): void {
  const context = `context=(${path.map((p) => `'${p}'`).join(', ')}${path.length === 1 ? ',' : ''})`;
  const fail = (rule: string): never => {
    throw invalidRequest(`Invalid schema for response_format '${name}': In ${context}, ${rule}.`, {
      code: 'invalid_json_schema',
      param: `${param}.schema`,
    });
  };
  if (path.length === 0 && schema.type !== 'object')
    fail('schema must be a JSON Schema of \'type: "object"\', got \'type: "' + String(schema.type) + '"\'');
  if (schema.type === 'object' || isRecord(schema.properties)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    if (schema.additionalProperties !== false)
      fail("'additionalProperties' is required to be supplied and to be false");
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined)
      fail(
        `'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'`,
      );
    for (const [key, sub] of Object.entries(properties))
      if (isRecord(sub)) checkStrict(sub, name, param, [...path, 'properties', key]);
  }
  if (schema.type === 'array' && isRecord(schema.items))
    checkStrict(schema.items, name, param, [...path, 'items']);
}

/** OpenAI Chat's `response_format`. */
export function parseResponseFormat(value: unknown): PolicyAnswerFormat | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value))
    throw invalidRequest(
      `Invalid type for 'response_format': expected an object, but got ${typeName(value)} instead.`,
      {
        code: 'invalid_type',
        param: 'response_format',
      },
    );
  if (value.type === 'text' || value.type === 'json_object') return undefined;
  if (value.type !== 'json_schema')
    throw invalidRequest(
      `Invalid value: '${String(value.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      { code: 'invalid_value', param: 'response_format.type' },
    );
  if (!isRecord(value.json_schema))
    throw invalidRequest("Missing required parameter: 'response_format.json_schema'.", {
      code: 'missing_required_parameter',
      param: 'response_format.json_schema',
    });
  return parseJsonSchemaFormat({
    value: value.json_schema,
    param: 'response_format.json_schema',
    schemaRequired: false,
  });
}

/** The Responses API's `text.format`. */
export function parseTextFormat(text: unknown): PolicyAnswerFormat | undefined {
  if (text === undefined || text === null) return undefined;
  if (!isRecord(text))
    throw invalidRequest(`Invalid type for 'text': expected an object, but got ${typeName(text)} instead.`, {
      code: 'invalid_type',
      param: 'text',
    });
  const format = text.format;
  if (format === undefined || format === null) return undefined;
  if (
    !isRecord(format) ||
    (format.type !== 'text' && format.type !== 'json_object' && format.type !== 'json_schema')
  )
    throw invalidRequest(
      `Invalid value: '${isRecord(format) ? String(format.type) : typeName(format)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      { code: 'invalid_value', param: 'text.format.type' },
    );
  if (format.type !== 'json_schema') return undefined;
  return parseJsonSchemaFormat({ value: format, param: 'text.format', schemaRequired: true });
}

/** Anthropic's `tool_choice`: a forced tool must be among `tools`; none means auto. */
export function parseToolChoice(value: unknown, tools: readonly PolicyTool[]): PolicyToolChoice {
  if (value === undefined || value === null) return { type: 'auto' };
  if (!isRecord(value))
    throw invalidRequest('tool_choice: Input should be a valid dictionary or object to extract fields from');
  switch (value.type) {
    case 'auto':
    case 'any':
    case 'none':
      if (value.type !== 'none' && tools.length === 0)
        throw invalidRequest('tool_choice may only be specified while providing tools.');
      return { type: value.type };
    case 'tool': {
      if (typeof value.name !== 'string') throw invalidRequest('tool_choice.tool.name: Field required');
      if (!tools.some((t) => t.name === value.name))
        throw invalidRequest(`Tool '${value.name}' not found in provided tools`);
      return { type: 'tool', name: value.name };
    }
    default:
      throw invalidRequest(
        `tool_choice: Input tag '${String(value.type)}' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'`,
      );
  }
}
