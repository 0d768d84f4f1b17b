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
    expect(findTooDeep({ ok: [1, { b: 2 }], deep: nest(MAX_JSON_DEPTH) })).toBe(
      `deep.${'a.'.repeat(5)}…(${MAX_JSON_DEPTH - 10} levels)…${'.a'.repeat(4)}`,
    );
    expect(findTooDeep({ x: [[[1]]] }, 3)).toBe('x.0.0');
    expect(findTooDeep('text')).toBeUndefined();
  });

  it('measures a value far too deep to stringify without blowing the stack', () => {
    const deep = nest(100_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(findTooDeep(deep)).toContain('levels');
  });

  it('agrees with the nesting depth of mixed arrays and objects at every limit', () => {
    // Depth counted independently: an object or array is one level more than its deepest child.
    const depthOf = (value: unknown): number =>
      typeof value !== 'object' || value === null ? 0 : 1 + Math.max(0, ...Object.values(value).map(depthOf));
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 48271) % 2147483647) % n;
    const build = (levels: number): unknown => {
      if (levels === 0) return next(2) === 0 ? 'leaf' : null;
      const children = Array.from({ length: 1 + next(3) }, (_, i) =>
        i === 0 ? build(levels - 1) : build(next(levels)),
      );
      return next(2) === 0 ? children : Object.fromEntries(children.map((child, i) => [`k${i}`, child]));
    };
    for (let i = 0; i < 200; i++) {
      const value = build(next(12));
      const depth = depthOf(value);
      for (const limit of [depth - 1, depth, depth + 1].filter((l) => l >= 0)) {
        expect(findTooDeep(value, limit) !== undefined).toBe(depth > limit);
      }
    }
  });
});
