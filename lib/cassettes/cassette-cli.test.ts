import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEventJson, type RunEvent } from '@/lib/protocol';
import { parseCassette } from './cassette-file';

/**
 * The recorder and the player as a person uses them: a CLI run against a small OpenAI-compatible
 * server written here (not Loop Lab's simulator) is recorded, the server is stopped, and the run
 * is replayed from the cassette alone — as it was, with a fault on top, and under a preset whose
 * recovery changes the history.
 */
const KEY = 'sk-local-cassette-secret-5150';
let server: Server | undefined;

afterEach(async () => {
  await stop();
});

async function stop(): Promise<void> {
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
}

/** One SSE record of a chat completion chunk. */
function record(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-local', object: 'chat.completion.chunk', created: 1, model: 'local-coder', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/**
 * The model: first it reads the README with arguments a careless model writes (single quotes, a
 * trailing comma: CodeSmith repairs them, the naive preset tells the model they are wrong), then
 * it answers; a request without tools (the run's title) gets a title.
 */
function answer(body: { messages: Array<{ role: string }>; tools?: unknown[] }): string[] {
  const usage = `data: ${JSON.stringify({ id: 'chatcmpl-local', object: 'chat.completion.chunk', created: 1, model: 'local-coder', choices: [], usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 } })}\n\n`;
  if (!body.tools?.length) return [record({ role: 'assistant', content: 'Reading the README' }), record({}, 'stop'), usage, 'data: [DONE]\n\n'];
  if (body.messages.at(-1)?.role === 'tool') {
    return [
      record({ role: 'assistant', content: 'The README describes ' }),
      record({ content: 'a slug helper; nothing to change.' }),
      record({}, 'stop'),
      usage,
      'data: [DONE]\n\n',
    ];
  }
  const call = (args: string, first: boolean): object => ({
    ...(first ? { role: 'assistant', content: null } : {}),
    tool_calls: [
      { index: 0, ...(first ? { id: 'call_local_1', type: 'function', function: { name: 'read_file', arguments: args } } : { function: { arguments: args } }) },
    ],
  });
  return [
    record({ role: 'assistant', content: 'Let me read the README first.' }),
    record(call("{'path': ", true)),
    record(call("'README.md',}", false)),
    record({}, 'tool_calls'),
    usage,
    'data: [DONE]\n\n',
  ];
}

async function startLocalModel(): Promise<{ url: string; keys: string[] }> {
  const keys: string[] = [];
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      keys.push(String(req.headers.authorization ?? ''));
      const records = answer(JSON.parse(text) as Parameters<typeof answer>[0]);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_local_${keys.length}` });
      // One record per write, 40 ms apart: the cassette keeps these boundaries and gaps.
      let i = 0;
      const next = (): void => {
        if (i >= records.length) return void res.end();
        res.write(records[i++]);
        setTimeout(next, 40);
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`, keys };
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const readTrace = (path: string): RunEvent[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseEventJson(line));

/** What the model said and did: each call's kept message and each tool call's name and arguments. */
function modelTurns(events: readonly RunEvent[]): unknown[] {
  return events.flatMap((e) => (e.event === 'llm_call' ? [['llm', e.message]] : e.event === 'tool_call' ? [['tool', e.tool, e.args, e.status]] : []));
}

describe('cassettes through the CLI', () => {
  it('records a run against a local server, then replays it with the server stopped: as it was, under a fault, and off the recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loop-cassette-'));
    const cassettePath = join(dir, 'local.cassette.json');
    const model = await startLocalModel();
    const recorded = await runCli(
      [
        '--provider',
        'openai-compatible',
        '--model',
        'local-coder',
        '--time-scale',
        '0.01',
        '--record',
        cassettePath,
        '--out',
        join(dir, 'recorded.jsonl'),
        '--quiet',
      ],
      { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: KEY },
    );
    expect(recorded.stderr).toBe('');
    expect(recorded.code, recorded.stdout).toBe(0);
    expect(model.keys.every((k) => k === `Bearer ${KEY}`)).toBe(true);
    await stop();

    const raw = readFileSync(cassettePath, 'utf8');
    const cassette = parseCassette(raw);
    for (const form of [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex')]) expect(raw).not.toContain(form);
    expect(cassette.source).toMatchObject({ kind: 'recorded', vendor: 'openai-compatible', model: 'local-coder' });
    // Three requests (the tool call, the answer, the title), each body kept in the reads it arrived in.
    expect(cassette.exchanges.map((x) => x.n)).toEqual([1, 2, 3]);
    expect(cassette.exchanges[0]!.response!.chunks.length).toBeGreaterThanOrEqual(3);
    expect(cassette.exchanges[0]!.response!.headers).toMatchObject({ 'x-request-id': 'req_local_1' });
    expect(Object.keys(cassette.exchanges[0]!.request.headers)).not.toContain('authorization');
    const original = modelTurns(readTrace(join(dir, 'recorded.jsonl')));
    expect(original).toContainEqual(['tool', 'read_file', { path: 'README.md' }, 'ok']);

    // The server is gone: the replay needs no key and no network.
    const replay = await runCli(['--cassette', cassettePath, '--clock', 'virtual', '--out', join(dir, 'replay.jsonl'), '--quiet']);
    expect(replay.stderr).toBe('');
    expect(replay.code, replay.stdout).toBe(0);
    expect(modelTurns(readTrace(join(dir, 'replay.jsonl')))).toEqual(original);

    // A stall on the first response after two of its recorded reads: the watchdog cuts it and the retry gets the recorded bytes again.
    const faults = join(dir, 'stall.json');
    writeFileSync(
      faults,
      JSON.stringify({
        provider: { vendor: 'openai-compatible' },
        faults: { rules: [{ id: 'stall', enabled: true, when: { kind: 'requests', numbers: [1] }, action: { type: 'stall', afterEvents: 0 } }], tools: [] },
      }),
    );
    const faulted = await runCli(['--cassette', cassettePath, '--config', faults, '--clock', 'virtual', '--out', join(dir, 'faulted.jsonl'), '--quiet']);
    expect(faulted.code, faulted.stdout).toBe(0);
    const faultedTrace = readTrace(join(dir, 'faulted.jsonl'));
    expect(faultedTrace.find((e) => e.event === 'watchdog_fired')).toBeDefined();
    expect(faultedTrace.filter((e) => e.event === 'retry_scheduled').map((e) => e.event === 'retry_scheduled' && e.category)).toEqual(['timeout']);
    expect(faultedTrace.filter((e) => e.event === 'off_recording')).toEqual([]);
    expect(modelTurns(faultedTrace)).toEqual(original);

    // Under the naive preset the careless arguments are not repaired: the tool result differs, so request 2 is not on the recording.
    const naive = await runCli(['--cassette', cassettePath, '--preset', 'naive', '--clock', 'virtual', '--out', join(dir, 'naive.jsonl'), '--quiet']);
    expect(naive.code).toBe(1);
    const off = readTrace(join(dir, 'naive.jsonl')).filter((e) => e.event === 'off_recording');
    expect(off).toEqual([expect.objectContaining({ request_no: 2, recorded_no: 2, next: 'stop' })]);
    expect(off[0]!.event === 'off_recording' && off[0]!.differs).toMatch(/messages: 4 sent, 4 recorded; first difference at message 4 \(tool\)/);
    expect(naive.stdout).toMatch(/incomplete: model_error \(off the recording at request 2/);
  }, 240_000);
});
