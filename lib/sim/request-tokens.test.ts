import { describe, expect, it } from 'vitest';
import { countTokens } from '@/lib/tokens/count-tokens';
import { requestTokens } from '@/lib/tokens/request-tokens';
import { countRequestTokens, sameJson } from './request-tokens';

const messages = [
  { role: 'user' as const, parts: [{ type: 'text' as const, text: 'Fix the failing test in src/sum.js' }] },
];
const tool = (inputSchema: Record<string, unknown>, description = 'Read a file of the workspace') => ({
  name: 'read_file',
  description,
  inputSchema,
});
/** What the shared structure counts, every tool serialised afresh. */
const fresh = (tools: ReturnType<typeof tool>[]) =>
  requestTokens({ system: 'You are a careful engineer.', messages, tools }, countTokens);
const count = (tools: ReturnType<typeof tool>[]) =>
  countRequestTokens({ system: 'You are a careful engineer.', messages, tools });

describe('countRequestTokens', () => {
  it('counts a request exactly as the shared structure does, when a tool definition repeats or changes under the same name', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string', description: 'the file' } },
      required: ['path'],
    };
    const variants = [
      schema,
      JSON.parse(JSON.stringify(schema)),
      {
        ...schema,
        properties: {
          path: { type: 'string', description: 'the file to read, relative to the workspace root' },
        },
      },
      // The same keys in another order serialise to another text.
      {
        required: ['path'],
        type: 'object',
        properties: { path: { description: 'the file', type: 'string' } },
      },
      { ...schema, required: [] },
      {
        ...schema,
        properties: { path: { type: 'string', description: 'the file' }, line: { type: 'integer' } },
      },
    ];
    for (const inputSchema of [...variants, ...variants.reverse()]) {
      expect(count([tool(inputSchema)])).toBe(fresh([tool(inputSchema)]));
      expect(count([tool(inputSchema, 'Read any file')])).toBe(fresh([tool(inputSchema, 'Read any file')]));
    }
  });
});

describe('sameJson', () => {
  it('holds only for values that serialise to the same JSON text', () => {
    const pairs: [unknown, unknown][] = [
      [
        { a: 1, b: [1, 'x', null] },
        { a: 1, b: [1, 'x', null] },
      ],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [
        [1, 2],
        [1, 2, 3],
      ],
      [{ a: [] }, { a: {} }],
      [{ a: null }, { a: {} }],
      [{ a: '1' }, { a: 1 }],
      [{}, []],
    ];
    for (const [a, b] of pairs) expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});
