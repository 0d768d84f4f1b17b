/** The kinds of block a `drop` fault can cut through. */
export type ContentKind = 'text' | 'tool_args' | 'thinking';

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null;
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

/**
 * Which content a record's JSON carries, for either dialect: Anthropic content_block_delta
 * (text_delta / input_json_delta / thinking_delta, signature_delta), OpenAI Chat chunks
 * (delta.content, delta.tool_calls[].function.arguments, delta.reasoning_content or
 * delta.reasoning as DeepSeek and vLLM send), and OpenAI Responses delta events.
 */
export function contentKindOf(data: string | undefined): ContentKind | undefined {
  if (!data || data[0] !== '{') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isDict(json)) return undefined;

  if (json.type === 'content_block_delta' && isDict(json.delta)) {
    // A delta with nothing in it (the empty `partial_json` that opens a tool call) carries no content.
    const delta = json.delta;
    switch (delta.type) {
      case 'text_delta':
        return nonEmpty(delta.text) ? 'text' : undefined;
      case 'input_json_delta':
        return nonEmpty(delta.partial_json) ? 'tool_args' : undefined;
      case 'thinking_delta':
        return nonEmpty(delta.thinking) ? 'thinking' : undefined;
      case 'signature_delta':
        return nonEmpty(delta.signature) ? 'thinking' : undefined;
    }
    return undefined;
  }

  switch (json.type) {
    case 'response.output_text.delta':
      return 'text';
    case 'response.function_call_arguments.delta':
      return 'tool_args';
    case 'response.reasoning_text.delta':
    case 'response.reasoning_summary_text.delta':
      return 'thinking';
  }

  const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
  if (!isDict(choice) || !isDict(choice.delta)) return undefined;
  const delta = choice.delta;
  if (nonEmpty(delta.reasoning_content) || nonEmpty(delta.reasoning)) return 'thinking';
  if (
    Array.isArray(delta.tool_calls) &&
    delta.tool_calls.some((c) => isDict(c) && isDict(c.function) && nonEmpty(c.function.arguments))
  ) {
    return 'tool_args';
  }
  if (nonEmpty(delta.content)) return 'text';
  return undefined;
}
