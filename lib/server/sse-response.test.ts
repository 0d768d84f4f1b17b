import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunEventSchema, type RunEvent } from '@/lib/protocol';
import { createSqliteRunStore, type RunStore } from '@/lib/store';
import { sampleConfig } from '@/lib/store/sample-run.testkit';
import { createFakeLaunch } from './fake-launch.testkit';
import { resumePoint } from './resume-point';
import { createRunRegistry, type RunRegistry } from './run-registry';
import { createSseResponse } from './sse-response';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sse-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Frame {
  id?: string;
  data?: string;
  comment?: string;
}

/** Splits an SSE body into frames the way a browser would (blank line ends a frame). */
function parseFrames(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else if (line.startsWith('id: ')) frame.id = line.slice(4);
        else if (line.startsWith('data: ')) frame.data = line.slice(6);
      }
      return frame;
    });
}

function eventsOf(frames: Frame[]): RunEvent[] {
  return frames
    .filter((f) => f.data !== undefined)
    .map((f) => {
      const event = RunEventSchema.parse(JSON.parse(f.data!));
      expect(f.id).toBe(String(event.seq));
      return event;
    });
}

function seqs(events: readonly RunEvent[]): number[] {
  return events.map((e) => e.seq);
}
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SSE response', () => {
  let registry: RunRegistry;
  let release: () => void;
  beforeEach(() => {
    const fake = createFakeLaunch({ steps: 20, tickMs: 1, holdAt: 10 });
    release = fake.release;
    registry = createRunRegistry({ store, launch: fake.launch, unwatchedMs: 60_000 });
  });

  it('streams the whole run with SSE headers, then closes after terminate', async () => {
    const { id } = await registry.startRun({ config: sampleConfig() });
    const response = await createSseResponse({ registry, runId: id });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    release();
    const frames = parseFrames(await response.text());
    expect(frames[0]).toEqual({ comment: 'connected' });
    const events = eventsOf(frames);
    expect(seqs(events)).toEqual(range(0, 21));
    expect(events.at(-1)?.event).toBe('terminate');
  });

  it('resumes mid-run from Last-Event-ID with no gap and no duplicate', async () => {
    const { id } = await registry.startRun({ config: sampleConfig() });
    // First connection: read until it has seq 6, then the client drops.
    const abort = new AbortController();
    const first = await createSseResponse({ registry, runId: id, signal: abort.signal });
    const reader = first.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!/id: 6\n/.test(seen)) seen += (await reader.read()).value ?? '';
    abort.abort();
    const before = eventsOf(parseFrames(seen.slice(0, seen.lastIndexOf('\n\n') + 2)));
    const lastId = before.at(-1)!.seq;

    const request = new Request(`http://test/api/runs/${id}/events`, {
      headers: { 'Last-Event-ID': String(lastId) },
    });
    const second = await createSseResponse({ registry, runId: id, afterSeq: resumePoint({ request }) });
    release();
    const after = eventsOf(parseFrames(await second.text()));
    expect([...seqs(before), ...seqs(after)]).toEqual(range(0, 21));
  });

  it('replays a finished run from ?after= and closes at once', async () => {
    const { id } = await registry.startRun({ config: sampleConfig() });
    release();
    await registry.whenFinished(id);
    const request = new Request(`http://test/api/runs/${id}/events?after=18`);
    const response = await createSseResponse({ registry, runId: id, afterSeq: resumePoint({ request }) });
    expect(seqs(eventsOf(parseFrames(await response.text())))).toEqual([19, 20, 21]);
  });

  it('unsubscribes when the client goes away, so the run is abandoned', async () => {
    const fake = createFakeLaunch({ steps: 20, holdAt: 2 });
    const quick = createRunRegistry({ store, launch: fake.launch, unwatchedMs: 30 });
    const { id } = await quick.startRun({ config: sampleConfig() });
    const abort = new AbortController();
    await createSseResponse({ registry: quick, runId: id, signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await quick.isLive(id)).toBe(true);
    abort.abort();
    await quick.whenFinished(id);
    expect((await store.getRun(id))?.summary.reason).toBe('abandoned');
  });

  it('sends heartbeat comments while the run is quiet', async () => {
    const { id } = await registry.startRun({ config: sampleConfig() });
    const response = await createSseResponse({ registry, runId: id, heartbeatMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    release();
    const frames = parseFrames(await response.text());
    expect(frames.filter((f) => f.comment === 'heartbeat').length).toBeGreaterThan(0);
  });
});

describe('resumePoint', () => {
  const at = (url: string, headers: Record<string, string> = {}) =>
    resumePoint({ request: new Request(url, { headers }) });
  it('prefers Last-Event-ID, then ?after=, else the start', () => {
    expect(at('http://t/x?after=3', { 'Last-Event-ID': '9' })).toBe(9);
    expect(at('http://t/x?after=3')).toBe(3);
    expect(at('http://t/x')).toBe(-1);
  });
  it('rejects a resume point that is not a seq', () => {
    expect(() => at('http://t/x?after=abc')).toThrow(/"after" query parameter must be an event seq/);
    expect(() => at('http://t/x', { 'Last-Event-ID': '1.5' })).toThrow(/Last-Event-ID header/);
  });
});
