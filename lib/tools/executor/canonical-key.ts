/**
 * The identity of a call for repeat detection: tool name plus arguments serialised with
 * sorted keys, so `{a:1,b:2}` and `{b:2,a:1}` are the same call and a read of other lines
 * is a different one.
 */
export function canonicalKey(options: { tool: string; args: unknown }): string {
  return `${options.tool} ${stableStringify(options.args)}`;
}

export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}
