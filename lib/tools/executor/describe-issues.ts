import type { z } from 'zod';
import { toInputSchema } from '../tool-spec';

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array ${JSON.stringify(value).slice(0, 80)}`;
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
  if (typeof value === 'object') return `an object ${JSON.stringify(value).slice(0, 80)}`;
  return `${typeof value} ${String(value)}`;
}

function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let cur = args;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** `{path: string, offset?: integer}` — the shape the model should have sent. */
export function signatureOf(options: { input: z.ZodType }): string {
  const schema = toInputSchema({ input: options.input });
  const props = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(props).map(
    ([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${p.type ?? 'any'}`,
  );
  return `{${fields.join(', ')}}`;
}

/**
 * Zod issues in words a model acts on: which field, what was expected, what arrived, and
 * the full expected shape — "invalid arguments" alone invites the same call again.
 */
export function describeIssues(options: {
  tool: string;
  input: z.ZodType;
  args: unknown;
  error: z.ZodError;
}): string {
  const { tool, input, args, error } = options;
  const lines = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (not part of ${tool}'s input)`;
    }
    const field = issue.path.length > 0 ? `field "${issue.path.map(String).join('.')}"` : 'the arguments';
    const received = describeValue(valueAt(args, issue.path));
    if (issue.code === 'invalid_type') return `${field}: expected ${issue.expected}, received ${received}`;
    return `${field}: ${issue.message.replace(/^Invalid input: /, '')}; received ${received}`;
  });
  return (
    `Error: invalid arguments for ${tool}: ${lines.join('; ')}. ` +
    `Expected ${signatureOf({ input })} (? = optional). Resend the call with corrected arguments.`
  );
}
