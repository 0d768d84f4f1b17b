import { describe, expect, it } from 'vitest';
import { findTooDeep, MAX_JSON_DEPTH } from './json-depth';

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('findTooDeep', () => {
  it('accepts values up to the limit and names the path where one goes past it', () => {
    expect(findTooDeep(nest(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findTooDeep({ ok: [1, { b: 2 }], deep: nest(MAX_JSON_DEPTH) })).toBe(`deep.${'a.'.repeat(5)}…(${MAX_JSON_DEPTH - 10} levels)…${'.a'.repeat(4)}`);
    expect(findTooDeep({ x: [[[1]]] }, 3)).toBe('x.0.0');
    expect(findTooDeep('text')).toBeUndefined();
  });

  it('measures a value far too deep to stringify without blowing the stack', () => {
    const deep = nest(100_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(findTooDeep(deep)).toContain('levels');
  });
});
