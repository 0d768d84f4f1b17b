import { describe, expect, it } from 'vitest';
import { parseToolArgs } from './parse-tool-args';

describe('parseToolArgs', () => {
  it('accepts only JSON objects', () => {
    expect(parseToolArgs('{"path":"a.ts","n":2}')).toEqual({ path: 'a.ts', n: 2 });
    expect(parseToolArgs('  ')).toEqual({});
    expect(parseToolArgs('{"path":')).toBeUndefined();
    expect(parseToolArgs('[1,2]')).toBeUndefined();
    expect(parseToolArgs('"a.ts"')).toBeUndefined();
    expect(parseToolArgs('null')).toBeUndefined();
    expect(parseToolArgs('3')).toBeUndefined();
  });
});
