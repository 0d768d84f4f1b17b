import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

const LADDER = { repairJson: true, coerceArgs: true };

describe('executor: the argument repair ladder', () => {
  it.each([
    ['a trailing comma', '{"path": "package.json", "limit": 1,}', 'trailing comma removed'],
    ['single quotes', "{'path': 'package.json', 'limit': 1}", 'single quotes replaced by double quotes'],
    ['unquoted keys', '{path: "package.json", limit: 1}', 'unquoted keys quoted'],
    ['a cut-off closing brace', '{"path": "package.json", "limit": 1', 'cut-off closing brace added'],
  ])('repairs %s and runs the call, saying what it changed', async (_kind, text, change) => {
    const t = setup({ config: LADDER });
    const { result } = await t.callRaw('read_file', text);
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/^package\.json — lines 1–1 of 7/);
    expect(t.events.map((e) => e.event)).toEqual(['tool_start', 'arg_repair', 'tool_call']);
    expect(t.of('arg_repair')[0]).toEqual({
      event: 'arg_repair',
      iteration: 1,
      call_id: 'c1',
      tool: 'read_file',
      rung: 'json',
      changes: [change],
      before: text,
      after: '{"path":"package.json","limit":1}',
      next: 'run',
      why: `read_file's arguments were not valid JSON (${change}); repaired with jsonrepair: the call goes on with the repaired arguments.`,
    });
    // What the model sent is on tool_start; what ran, and that it was repaired, on tool_call.
    expect(t.of('tool_start')[0]!.args).toBe(text);
    expect(t.of('tool_call')[0]).toMatchObject({
      status: 'ok',
      args: { path: 'package.json', limit: 1 },
      repaired: ['json'],
    });
  });

  it('coerces a value the schema takes only one way ("7" → 7), after the text rung when both are needed', async () => {
    const t = setup({ config: LADDER });
    const { result } = await t.callRaw('read_file', "{'path': 'package.json', 'limit': '1',}");
    expect(result.isError).toBe(false);
    const [json, coerce] = t.of('arg_repair');
    expect(json).toMatchObject({
      rung: 'json',
      next: 'coerce',
      after: '{"path":"package.json","limit":"1"}',
    });
    expect(coerce).toMatchObject({
      rung: 'coerce',
      changes: ['limit: "1" → 1'],
      before: '{"path":"package.json","limit":"1"}',
      after: '{"path":"package.json","limit":1}',
      next: 'run',
    });
    expect(coerce!.why).toBe(
      'read_file got a value its schema takes only one way (limit: "1" → 1); converted: the call goes on with the repaired arguments.',
    );
    expect(t.of('tool_call')[0]).toMatchObject({ status: 'ok', repaired: ['json', 'coerce'] });
  });

  it('coerces booleans and leaves what is ambiguous to the re-ask', async () => {
    const t = setup({ config: LADDER });
    await t.call('probe', { fail: 'false', n: '7' });
    expect(t.probe.runs).toBe(1);
    expect(t.of('arg_repair')[0]!.changes).toEqual(['n: "7" → 7', 'fail: "false" → false']);
    // "seven" and a number for a path have no single meaning: the model is asked again.
    const { result } = await t.call('probe', { n: 'seven' });
    expect(result.content).toMatch(/field "n": expected number, received string "seven"/);
    const bad = await t.call('read_file', { path: 42, limit: '2' });
    expect(bad.result.content).toMatch(/field "path": expected string, received number 42/);
    expect(t.of('arg_repair').at(-1)).toMatchObject({
      rung: 'coerce',
      changes: ['limit: "2" → 2'],
      next: 'reask',
    });
    expect(t.of('tool_call').map((e) => e.status)).toEqual(['ok', 'invalid_args', 'invalid_args']);
  });

  it('re-asks with the specific error when the text cannot be repaired into an object', async () => {
    const t = setup({ config: LADDER });
    const { result } = await t.callRaw('read_file', '["package.json"]');
    expect(result.content).toMatch(/must be a JSON object, received an array/);
    expect(t.of('arg_repair')).toEqual([]);
  });

  it('does nothing with the rungs off: the re-ask is all there is', async () => {
    const t = setup({ config: { repairJson: false, coerceArgs: false } });
    const { result } = await t.callRaw('read_file', '{"path": "package.json", "limit": "1",}');
    expect(result.content).toMatch(
      /^Error: invalid arguments for read_file: the arguments are not valid JSON/,
    );
    const typed = await t.callRaw('read_file', '{"path": "package.json", "limit": "1"}');
    expect(typed.result.content).toMatch(/field "limit": expected number, received string "1"/);
    expect(t.of('arg_repair')).toEqual([]);
    expect(t.of('tool_call').every((e) => e.repaired === undefined)).toBe(true);
  });

  it('switches each rung on its own', async () => {
    const jsonOnly = setup({ config: { repairJson: true, coerceArgs: false } });
    const a = await jsonOnly.callRaw('read_file', '{"path": "package.json", "limit": "1",}');
    expect(a.result.content).toMatch(/field "limit": expected number, received string "1"/);
    expect(jsonOnly.of('arg_repair').map((e) => [e.rung, e.next])).toEqual([['json', 'reask']]);

    const coerceOnly = setup({ config: { repairJson: false, coerceArgs: true } });
    const b = await coerceOnly.callRaw('read_file', '{"path": "package.json", "limit": "1",}');
    expect(b.result.content).toMatch(/not valid JSON/);
    const c = await coerceOnly.callRaw('read_file', '{"path": "package.json", "limit": "1"}');
    expect(c.result.isError).toBe(false);
    expect(coerceOnly.of('arg_repair').map((e) => [e.rung, e.next])).toEqual([['coerce', 'run']]);
  });

  it('still refuses a call whose arguments the output cap cut: that text was lost, not damaged', async () => {
    const t = setup({ config: LADDER });
    const { result } = await t.callRaw('read_file', '{"path": "package.js', { truncatedRound: true });
    expect(result.isError).toBe(true);
    expect(t.of('tool_call')[0]!.status).toBe('refused_truncated');
    expect(t.of('arg_repair')).toEqual([]);
  });
});
