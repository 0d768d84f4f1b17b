import { z } from 'zod';
import type { ToolSpec } from '@/lib/providers/types';
import type { Tool } from './types';

/**
 * Input schemas already converted, by the zod schema object they came from. A run sends the
 * same tools on every request and a sweep runs thousands of runs; converting is pure in the
 * schema (zod schemas are immutable), and the tools' schemas are module constants, so the map
 * stays as small as the set of tools. Weak, so a schema built on the fly is not kept alive.
 */
const converted = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

/**
 * The JSON Schema vendors accept for a tool's input: `type: object`, `properties`,
 * `required` — no `$schema`, no `additionalProperties` (some vendors reject or mis-handle
 * them). Arguments are still validated against the strict zod schema when called. The
 * result is shared between calls, so it is frozen all the way down.
 */
export function toInputSchema(options: { input: z.ZodType }): Readonly<Record<string, unknown>> {
  const cached = converted.get(options.input);
  if (cached) return cached;
  const full = z.toJSONSchema(options.input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const schema: Record<string, unknown> = { type: 'object', properties: full.properties ?? {} };
  if (Array.isArray(full.required) && full.required.length > 0) schema.required = full.required;
  const frozen = deepFreeze(schema);
  converted.set(options.input, frozen);
  return frozen;
}

export function toToolSpec(options: { tool: Pick<Tool, 'name' | 'description' | 'input'> }): ToolSpec {
  const { tool } = options;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: toInputSchema({ input: tool.input }),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
