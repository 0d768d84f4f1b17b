import { describe, expect, it } from 'vitest';
import type { EventOf } from '@/lib/protocol';
import { answerToControl, pauseQuestion } from './pause-prompt';
import { parseCliArgs } from './parse-args';

const base = {
  run_id: 'r',
  seq: 9,
  ts: 100,
  event: 'paused' as const,
  reason: 'why',
  at: 'where',
  next: 'next',
};
const atBreakpoint: EventOf<'paused'> = { ...base, trigger: 'breakpoint', clock: 'held' };
const approval: EventOf<'paused'> = {
  ...base,
  trigger: 'approval',
  clock: 'held',
  call: { id: 'c1', tool: 'write_file', args: { path: 'a.js' } },
};

describe('the CLI at a pause', () => {
  it('--break-on and --approve-tools go into the config; an unknown event kind is refused by name', () => {
    const options = parseCliArgs([
      '--break-on',
      'retry_scheduled',
      '--approve-tools',
      'read_file,write_file',
    ]);
    expect(options).not.toBe('help');
    if (options === 'help') return;
    expect(options.config.pause).toEqual({
      breakpoints: [{ on: 'event', event: 'retry_scheduled' }],
      approval: { tools: ['read_file', 'write_file'] },
    });
    expect(() => parseCliArgs(['--break-on', 'retry'])).toThrow(/no breakable event "retry"/);
  });

  it('answers step, continue and cancel at a breakpoint, and asks again at anything else', () => {
    expect(pauseQuestion(atBreakpoint)).toContain('[s]tep');
    expect(answerToControl(atBreakpoint, 's')).toEqual({ control: { action: 'step', by: 'cli' } });
    expect(answerToControl(atBreakpoint, '')).toEqual({ control: { action: 'continue', by: 'cli' } });
    expect(answerToControl(atBreakpoint, 'x')).toEqual({ control: { action: 'cancel', by: 'cli' } });
    expect(answerToControl(atBreakpoint, 'q')).toEqual({
      problem: 'answer s (step), c (continue) or x (cancel)',
    });
  });

  it('approves, denies with a message and edits with JSON arguments, saying what is wrong with a bad answer', () => {
    expect(answerToControl(approval, 'y')).toEqual({
      control: { action: 'approve', callId: 'c1', by: 'cli' },
    });
    expect(answerToControl(approval, 'n')).toHaveProperty('ask');
    expect(answerToControl(approval, 'n', ' not today ')).toEqual({
      control: { action: 'deny', callId: 'c1', message: 'not today', by: 'cli' },
    });
    expect(answerToControl(approval, 'n', '')).toHaveProperty('problem');
    expect(answerToControl(approval, 'e', '{"path":"b.js"}')).toEqual({
      control: { action: 'edit', callId: 'c1', args: { path: 'b.js' }, by: 'cli' },
    });
    expect(answerToControl(approval, 'e', '[1]')).toEqual({
      problem: 'the arguments must be a JSON object, e.g. {"path": "src/a.js"}',
    });
    expect(answerToControl(approval, 'e', '{oops')).toMatchObject({
      problem: expect.stringMatching(/not JSON/),
    });
  });
});

describe('--break-on in a pipe', () => {
  it('is refused before the run starts, saying why (nobody could answer the prompt)', async () => {
    const { spawn } = await import('node:child_process');
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'lib/cli/main.ts', '--clock', 'virtual', '--break-on', 'retry_scheduled'],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test' },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (exit) => resolve({ code: exit ?? -1, stderr: err }));
      child.stdin.end();
    });
    expect(code).toBe(2);
    expect(stderr).toContain('stdin is not a terminal: nobody could answer');
  }, 60_000);
});
