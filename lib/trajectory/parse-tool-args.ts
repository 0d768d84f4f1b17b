/**
 * Parses a tool call's argument text. Only a JSON object counts: vendors and tools expect
 * named arguments, so `[]`, `"x"` or `3` are as unusable as broken JSON. Blank text is
 * `{}`: Anthropic streams no input at all for a call without arguments.
 */
export function parseToolArgs(argsText: string): Record<string, unknown> | undefined {
  if (argsText.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(argsText);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
