import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

describe('executor: events and validation', () => {
  it('emits tool_start, then tool_call with result, size, status and clock latency', async () => {
    const t = setup();
    const { result, halt } = await t.call('read_file', { path: 'package.json', limit: 1 });
    expect(halt).toBeUndefined();
    expect(result).toEqual({
      type: 'tool_result',
      callId: 'c1',
      isError: false,
      content: expect.stringMatching(/^package\.json — lines 1–1 of 7/),
    });
    expect(t.events.map((e) => e.event)).toEqual(['tool_start', 'tool_call']);
    expect(t.events[0]).toEqual({
      event: 'tool_start',
      iteration: 1,
      call_id: 'c1',
      tool: 'read_file',
      args: { path: 'package.json', limit: 1 },
    });
    expect(t.events[1]).toMatchObject({
      event: 'tool_call',
      call_id: 'c1',
      tool: 'read_file',
      result: result.content,
      result_chars: result.content.length,
      is_error: false,
      latency_ms: 0,
      status: 'ok',
    });
    expect(t.of('tool_call')[0]).not.toHaveProperty('truncated_chars');
  });

  it('answers an unknown tool with the tools that exist', async () => {
    const t = setup();
    const { result } = await t.call('read_files', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'Error: there is no tool named "read_files". Available tools: list_files, read_file, search, edit_file, write_file, run_check, probe. Did you mean read_file? Call one of those.',
    );
    expect(t.of('tool_call')[0]).toMatchObject({ status: 'unknown_tool', is_error: true });
  });

  it('names the field, the expected type and what arrived when the schema fails', async () => {
    const t = setup();
    const { result } = await t.call('read_file', { path: 5, offset: 'ten' });
    expect(result.content).toBe(
      'Error: invalid arguments for read_file: field "path": expected string, received number 5; ' +
        'field "offset": expected number, received string "ten". ' +
        'Expected {path: string, offset?: integer, limit?: integer} (? = optional). Resend the call with corrected arguments.',
    );
    expect(t.of('tool_call')[0]).toMatchObject({ status: 'invalid_args', is_error: true });
    const extra = await t.call('read_file', { file_path: 'a' });
    expect(extra.result.content).toMatch(
      /field "path": expected string, received nothing \(the field is missing\); unexpected field "file_path"/,
    );
  });

  it('quotes argument text that is not a JSON object', async () => {
    const t = setup();
    const bad = await t.callRaw('read_file', '{"path": ');
    expect(bad.result.content).toMatch(
      /^Error: invalid arguments for read_file: the arguments are not valid JSON \(.*\)\. Received "\{\\"path\\": "/,
    );
    const list = await t.callRaw('read_file', '["a"]');
    expect(list.result.content).toMatch(/must be a JSON object, received an array/);
    expect(t.of('tool_call').map((e) => e.status)).toEqual(['invalid_args', 'invalid_args']);
    expect(t.of('tool_start')[0]?.args).toBe('{"path": ');
  });

  it('treats empty argument text as no arguments', async () => {
    const t = setup();
    const { result } = await t.callRaw('run_check', '');
    expect(result.content).toMatch(/^FAIL\n/);
  });

  it('refuses unparsable calls in a round cut at the length cap, and runs complete ones', async () => {
    const t = setup();
    const cut = await t.callRaw('write_file', '{"path": "src/a.js", "content": "func', {
      truncatedRound: true,
    });
    expect(cut.result.content).toMatch(
      /^Error: the call to write_file was not run: your previous response hit the output length limit/,
    );
    expect(cut.result.content).toMatch(/Resend the call with complete arguments/);
    expect(t.workspace.read('src/a.js')).toBeUndefined();
    const whole = await t.call('list_files', {}, { truncatedRound: true });
    expect(whole.result.isError).toBe(false);
    expect(t.of('tool_call').map((e) => e.status)).toEqual(['refused_truncated', 'ok']);
  });

  it('never throws, even when emitting fails', async () => {
    const t = setup({
      emit: () => {
        throw new Error('log closed');
      },
    });
    const { result } = await t.call('list_files');
    expect(result).toMatchObject({
      callId: 'c1',
      isError: true,
      content: expect.stringMatching(/internal failure.*log closed/),
    });
  });
});
