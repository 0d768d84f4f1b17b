import fs from 'node:fs';
import { createRedactor } from '@/lib/runtime/redact-secrets';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunEventSchema, type RunEvent } from '@/lib/protocol';
import { exportRunJsonl, importJsonl, parseJsonl, toJsonl } from './jsonl';
import type { RunStore } from './run-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';
import { createSqliteRunStore } from './sqlite-run-store';

const TRACER_FIXTURE = fs.readFileSync(path.join(__dirname, 'fixtures/tracer-trace.jsonl'), 'utf8');

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-jsonl-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function expectWellFormed(events: readonly RunEvent[], runId: string): void {
  events.forEach((event, index) => {
    expect(RunEventSchema.safeParse(event).success).toBe(true);
    expect(event.seq).toBe(index);
    expect(event.run_id).toBe(runId);
  });
  expect(events[0]?.event).toBe('run_start');
  expect(events.at(-1)?.event).toBe('terminate');
}

describe('JSONL export and import of our own events', () => {
  it('exports exactly the stored events and imports them back under a new id', async () => {
    const events = sampleRunEvents({ runId: 'orig' });
    await store.createRun({ id: 'orig', config: sampleConfig() });
    await store.appendEvents({ runId: 'orig', ...batchOf(events) });
    const text = (await exportRunJsonl({ store, runId: 'orig' }))!;
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(events);
    expect(await exportRunJsonl({ store, runId: 'missing' })).toBeUndefined();

    const result = await importJsonl({ store, text, redactor: createRedactor({ secrets: [] }) });
    if (!result.ok) throw new Error(result.errors.join('\n'));
    const imported = await store.readEvents({ runId: result.id });
    expect(imported).toEqual(events.map((e) => ({ ...e, run_id: result.id })));
    const record = (await store.getRun(result.id))!;
    expect(record.summary).toMatchObject({
      imported: true,
      status: 'completed',
      event_count: 7,
      input_tokens: 2200,
    });
    expect(record.config).toEqual(sampleConfig());
    // A second export of the import is the same file, re-stamped.
    expect(await exportRunJsonl({ store, runId: result.id })).toBe(toJsonl(imported));
  });

  it('renumbers a log with dropped lines and closes one cut off before terminate', () => {
    const events = sampleRunEvents({ runId: 'orig' });
    const text = toJsonl([events[0]!, events[2]!, events[3]!]);
    const parsed = parseJsonl({ text, runId: 'new' });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expectWellFormed(parsed.events, 'new');
    expect(parsed.events.map((e) => e.event)).toEqual(['run_start', 'llm_call', 'tool_call', 'terminate']);
    expect(parsed.events.at(-1)).toMatchObject({ reason: 'imported', complete: false, input_tokens: 1000 });
  });

  it('names the line and field of a bad event', () => {
    const events = sampleRunEvents({ runId: 'orig' });
    const lines = toJsonl(events).trim().split('\n');
    lines[2] = JSON.stringify({ ...events[2], input_tokens: 'many' });
    const parsed = parseJsonl({ text: lines.join('\n'), runId: 'x' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]).toMatch(/^line 3: not a valid Loop Lab event \(.*input_tokens/);
  });

  it('rejects events after terminate and a second run_start', () => {
    const events = sampleRunEvents({ runId: 'orig' });
    const parsed = parseJsonl({ text: toJsonl([...events, events[1]!, events[0]!]), runId: 'x' });
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      'line 8: iteration_start after the terminate event on line 7',
      'line 9: a second run_start; import one run per file',
    ]);
  });
});

describe('plain tracer JSONL import', () => {
  it('converts the tracer fixture into a well-formed run', async () => {
    const result = await importJsonl({
      store,
      text: TRACER_FIXTURE,
      redactor: createRedactor({ secrets: [] }),
    });
    if (!result.ok) throw new Error(result.errors.join('\n'));
    const events = await store.readEvents({ runId: result.id });
    expectWellFormed(events, result.id);
    expect(events.map((e) => e.event)).toEqual([
      'run_start',
      'iteration_start',
      'llm_call',
      'tool_call',
      'iteration_start',
      'llm_call',
      'tool_call',
      'log',
      'iteration_start',
      'llm_call',
      'terminate',
    ]);
    expect(events.map((e) => e.ts)).toEqual([0, 0, 0, 277, 2852, 2852, 2885, 2895, 6375, 6375, 6385]);
    expect(events[3]).toMatchObject({
      tool: 'read_file',
      args: { path: 'docs/setup.md' },
      is_error: true,
      result_chars: 118,
      latency_ms: 0,
    });
    expect(events[7]).toMatchObject({
      event: 'log',
      message: 'tracer event retry: {"attempt":2,"wait_s":1}',
    });
    expect(events.at(-1)).toMatchObject({
      reason: 'end_turn',
      complete: true,
      message: 'finish tool called',
      usd_so_far: 0.0411,
      input_tokens: 1843 + 2104 + 6230,
      output_tokens: 212 + 96 + 388,
      iteration: 2,
    });
    const start = events[0];
    expect(start?.event === 'run_start' && start.scenario.id).toBe('imported');
    expect(start?.event === 'run_start' && start.tools).toEqual(['read_file']);
    expect(await store.getRun(result.id)).toMatchObject({
      config: { scenario: 'imported' },
      summary: {
        imported: true,
        status: 'completed',
        iterations: 3,
        usd: 0.0411,
        duration_ms: 6385,
        scenario: 'imported',
      },
    });
  });

  it('accepts millisecond timestamps and ends a trace without terminate with reason imported', () => {
    const text = [
      {
        run_id: 'x',
        ts: 1735689600000,
        event: 'llm_call',
        iteration: 1,
        input_tokens: 10,
        output_tokens: 5,
        usd_so_far: 0.01,
        stop_reason: 'tool_use',
        latency_ms: 900,
      },
      {
        run_id: 'x',
        ts: 1735689600450,
        event: 'tool_call',
        iteration: 1,
        tool: 'grep',
        args: { pattern: 'TODO' },
        result_chars: 10,
        is_error: false,
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const parsed = parseJsonl({ text, runId: 'new' });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expectWellFormed(parsed.events, 'new');
    expect(parsed.events.map((e) => e.ts)).toEqual([0, 0, 0, 450, 450]);
    expect(parsed.events.at(-1)).toMatchObject({
      reason: 'imported',
      complete: false,
      usd_so_far: 0.01,
      input_tokens: 10,
    });
  });

  it('reports bad lines by number and what is wrong', () => {
    const lines = TRACER_FIXTURE.trim().split('\n');
    lines[0] = lines[0]!.replace('"input_tokens": 1843', '"input_tokens": "lots"');
    lines[2] = '{"run_id": "3f9a1c2e", "ts": 1735689602.977, "event": "llm_call", ';
    lines[3] = lines[3]!.replace('"ts": 1735689603.01, ', '');
    const parsed = parseJsonl({ text: lines.join('\n'), runId: 'x' });
    expect(parsed.ok ? [] : parsed.errors).toEqual([expect.stringMatching(/^line 3: not valid JSON/)]);

    lines[2] = '[1, 2]';
    const again = parseJsonl({ text: lines.join('\n'), runId: 'x' });
    expect(again.ok ? [] : again.errors).toEqual(['line 3: expected a JSON object, got an array']);

    lines.splice(2, 1);
    const third = parseJsonl({ text: lines.join('\n'), runId: 'x' });
    expect(third.ok ? [] : third.errors).toEqual([
      expect.stringMatching(/^line 1: llm_call input_tokens: .*number/),
      'line 3: "ts" is missing or not a time (expected epoch seconds, epoch ms or an ISO date)',
    ]);
  });

  it('rejects a file holding several runs, an empty file and one with no usable lines', async () => {
    const mixed = `${TRACER_FIXTURE}${JSON.stringify({ run_id: 'other', ts: 1735689700, event: 'llm_call', iteration: 0, input_tokens: 1, output_tokens: 1 })}\n`;
    const parsed = parseJsonl({ text: mixed, runId: 'x' });
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      expect.stringMatching(
        /^line 9: run_id "other" differs from "3f9a1c2e" on line 1; .*split it by run_id/,
      ),
    ]);

    expect(await importJsonl({ store, text: '\n  \n', redactor: createRedactor({ secrets: [] }) })).toEqual({
      ok: false,
      errors: ['the file is empty: expected one JSON object a line'],
    });
    const noUsable = await importJsonl({
      store,
      text: '{"ts": 1, "event": "note", "text": "hi"}\n',
      redactor: createRedactor({ secrets: [] }),
    });
    expect(noUsable).toEqual({
      ok: false,
      errors: ['the file has no llm_call, tool_call or terminate lines: nothing to import'],
    });
    expect(await store.listRuns()).toEqual([]);
  });
});
