type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null;

/**
 * Whether a record is a stream's final delta — the one that carries the stop reason — in
 * either dialect: Anthropic `message_delta`, an OpenAI Chat chunk with a `finish_reason`,
 * or the OpenAI Responses `response.completed` / `response.incomplete` event. Everything
 * the model said has arrived by then; only the verdict on how it ended has not.
 */
export function isFinalRecord(data: string | undefined): boolean {
  if (!data || data[0] !== '{') return false;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return false;
  }
  if (!isDict(json)) return false;
  if (json.type === 'message_delta') return true;
  if (json.type === 'response.completed' || json.type === 'response.incomplete') return true;
  const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
  return isDict(choice) && typeof choice.finish_reason === 'string' && choice.finish_reason.length > 0;
}
