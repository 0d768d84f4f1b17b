import { z } from 'zod';
import type { ToolSpec } from '@/lib/providers/types';
import type { Tool } from './types';

/**
 * The JSON Schema vendors accept for a tool's input: `type: object`, `properties`,
 * `required` — no `$schema`, no `additionalProperties` (some vendors reject or mis-handle
 * them). Arguments are still validated against the strict zod schema when called.
 */
export function toInputSchema(options: { input: z.ZodType }): Record<string, unknown> {
  const full = z.toJSONSchema(options.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const schema: Record<string, unknown> = { type: 'object', properties: full.properties ?? {} };
  if (Array.isArray(full.required) && full.required.length > 0) schema.required = full.required;
  return schema;
}

export function toToolSpec(options: { tool: Pick<Tool, 'name' | 'description' | 'input'> }): ToolSpec {
  const { tool } = options;
  return { name: tool.name, description: tool.description, inputSchema: toInputSchema({ input: tool.input }) };
}
