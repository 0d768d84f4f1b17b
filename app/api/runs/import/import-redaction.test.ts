import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { sampleRunEvents } from '@/lib/store/sample-run.testkit';
import { GET as getRun } from '../[id]/route';
import { GET as getTrace } from '../[id]/trace/route';
import { GET as getRuns } from '../route';
import { POST as postImport } from './route';

// An imported trace written elsewhere can quote the server's own keys verbatim (a vendor error
// body, a logged header, a tool's output). The import stores none of them.
const dataDir = useTempDataDir('loop-lab-import-redaction-');
afterEach(() => vi.unstubAllEnvs());

const KEYS = {
  ANTHROPIC_API_KEY: 'sk-ant-import-canary-0123456789abcdef',
  OPENAI_API_KEY: 'sk-openai-import-canary-0123456789abcd',
  MISTRAL_API_KEY: 'mistral-import-canary-ZZ0123456789',
};
const ctx = (id: string) => routeContext({ id });

async function imported(text: string): Promise<string> {
  const response = await postImport(
    jsonPost('http://localhost/api/runs/import', text, { 'Content-Type': 'application/x-ndjson' }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Everything the server would hand out about a run, and its database files on disk. */
async function everywhere(id: string): Promise<string[]> {
  const files = fs
    .readdirSync(dataDir())
    .map((f) => fs.readFileSync(path.join(dataDir(), f)).toString('latin1'));
  return [
    await (await getTrace(new Request(`http://localhost/api/runs/${id}/trace`), ctx(id))).text(),
    await (await getRun(new Request(`http://localhost/api/runs/${id}`), ctx(id))).text(),
    await (await getRuns(new Request('http://localhost/api/runs'))).text(),
    ...files,
  ];
}

describe('POST /api/runs/import: the server’s keys are redacted before storing', () => {
  it('a Loop Lab log quoting every key the server holds, in every field and form, is stored without any of them', async () => {
    for (const [name, value] of Object.entries(KEYS)) vi.stubEnv(name, value);
    const events = sampleRunEvents({ runId: 'elsewhere' }).map((event) => {
      if (event.event === 'run_start')
        return {
          ...event,
          scenario: { ...event.scenario, task: `Authorization: Bearer ${KEYS.ANTHROPIC_API_KEY}` },
        };
      if (event.event === 'tool_call')
        return {
          ...event,
          args: { path: `/tmp/${KEYS.OPENAI_API_KEY}`, note: encodeURIComponent(KEYS.MISTRAL_API_KEY) },
        };
      return event;
    });
    const text = events.map((e) => JSON.stringify(e)).join('\n');
    for (const key of Object.values(KEYS)) expect(text).toContain(key.slice(0, 20));
    const id = await imported(text);
    const stored = await everywhere(id);
    for (const body of stored) for (const key of Object.values(KEYS)) expect(body).not.toContain(key);
    const trace = stored[0]!;
    expect(trace).toContain('Bearer [redacted]');
    expect(trace).toContain('/tmp/[redacted]');
    // Nothing else changed: the rest of the log is as sent, re-stamped with the new id.
    const lines = trace
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.event)).toEqual(events.map((e) => e.event));
    expect(lines[2]).toEqual({ ...events[2], run_id: id });
  });

  it('a plain tracer’s lines carrying a key are stored without it', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEYS.OPENAI_API_KEY);
    const lines = [
      {
        run_id: 'x',
        ts: 1735689600.1,
        event: 'llm_call',
        iteration: 0,
        input_tokens: 10,
        output_tokens: 5,
        usd_so_far: 0.001,
        stop_reason: 'tool_use',
        latency_ms: 20,
      },
      {
        run_id: 'x',
        ts: 1735689600.2,
        event: 'tool_call',
        iteration: 0,
        tool: 'read_file',
        args: { path: `.env: OPENAI_API_KEY=${KEYS.OPENAI_API_KEY}` },
        result_chars: 3,
        is_error: false,
      },
      { run_id: 'x', ts: 1735689600.3, event: 'terminate', reason: 'done', complete: true },
    ];
    const id = await imported(lines.map((l) => JSON.stringify(l)).join('\n'));
    const stored = await everywhere(id);
    for (const body of stored) expect(body).not.toContain(KEYS.OPENAI_API_KEY);
    expect(stored[0]).toContain('OPENAI_API_KEY=[redacted]');
  });

  it('a key used as a property name, at any depth of any event, is stored and served without it', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEYS.ANTHROPIC_API_KEY);
    const key = KEYS.ANTHROPIC_API_KEY;
    const events = sampleRunEvents({ runId: 'elsewhere' }).map((event) => {
      if (event.event === 'tool_call' || event.event === 'tool_start')
        return { ...event, args: { [key]: 'value', deeper: { [`Bearer ${key}`]: [1] } } };
      if (event.event === 'run_start') return { ...event, scenario: { ...event.scenario, [key]: 'x' } };
      return event;
    });
    const id = await imported(events.map((e) => JSON.stringify(e)).join('\n'));
    const stored = await everywhere(id);
    for (const body of stored) expect(body).not.toContain(key);
    const lines = stored[0]!
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; args?: unknown });
    expect(lines.find((l) => l.event === 'tool_call')?.args).toEqual({
      '[redacted]': 'value',
      deeper: { 'Bearer [redacted]': [1] },
    });
  });
});
