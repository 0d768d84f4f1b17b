import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toInputSchema } from './tool-spec';

describe('toInputSchema', () => {
  it('converts a schema once and hands every caller the same frozen copy', () => {
    const input = z.strictObject({ path: z.string(), limit: z.number().int().optional() });
    const first = toInputSchema({ input });
    expect(first).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        limit: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ['path'],
    });
    expect(toInputSchema({ input })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, object>).path)).toBe(true);
    expect(() => ((first.properties as Record<string, unknown>).path = {})).toThrow(TypeError);
  });

  it('keys on the schema object: a different schema gets its own conversion', () => {
    const a = toInputSchema({ input: z.strictObject({ path: z.string() }) });
    const b = toInputSchema({ input: z.strictObject({ pattern: z.string() }) });
    expect(Object.keys(a.properties as object)).toEqual(['path']);
    expect(Object.keys(b.properties as object)).toEqual(['pattern']);
  });
});
