import type { z } from 'zod';
import { RunConfigSchema } from './config';

/** What a number field of the run config allows: the schema's own bounds. */
export interface NumberBounds {
  min: number;
  max: number;
  /** A whole number only. */
  int: boolean;
}

interface SchemaNode {
  def: { type: string; innerType?: unknown };
  shape?: Record<string, unknown>;
}

/** A number schema's bounds through its default/optional/nullable wrappers; undefined for any other schema. */
export function boundsOf(schema: z.ZodType): NumberBounds | undefined {
  let s = schema as unknown as SchemaNode;
  while (s.def.type === 'default' || s.def.type === 'optional' || s.def.type === 'nullable')
    s = s.def.innerType as SchemaNode;
  if (s.def.type !== 'number') return undefined;
  const n = s as unknown as { minValue: number | null; maxValue: number | null; isInt: boolean };
  return {
    min: n.minValue ?? -Number.MAX_SAFE_INTEGER,
    max: n.maxValue ?? Number.MAX_SAFE_INTEGER,
    int: n.isInt,
  };
}

/**
 * Every number field of the run config by its dotted path (`seed`, `budgets.maxIterations`,
 * `recovery.retry.maxRetries`), read from RunConfigSchema. The browser's form checks what is
 * typed against these without loading zod: `npm run fixtures` writes them to
 * lib/protocol/fixtures/number-bounds.json, and the fixtures test fails when the schema moves.
 */
export function numberBounds(): Record<string, NumberBounds> {
  const bounds: Record<string, NumberBounds> = {};
  const walk = (shape: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(shape)) {
      const path = `${prefix}${key}`;
      const found = boundsOf(value as z.ZodType);
      if (found) {
        bounds[path] = found;
        continue;
      }
      let s = value as SchemaNode;
      while (s.def.type === 'default' || s.def.type === 'optional' || s.def.type === 'nullable')
        s = s.def.innerType as SchemaNode;
      if (s.def.type === 'object' && s.shape) walk(s.shape, `${path}.`);
    }
  };
  walk(RunConfigSchema.shape, '');
  return bounds;
}

/** The file's text, as `npm run fixtures` writes it. */
export function numberBoundsJson(): string {
  return `${JSON.stringify(numberBounds(), null, 2)}\n`;
}
