import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealClock, createRandom } from '@/lib/clock';
import { RunConfigSchema, type EventOf, type RunEvent } from '@/lib/protocol';
import { createPolicy, createSimAnthropic, createSimOpenAI, startSimServer, type SimServer } from '@/lib/sim';
import { getScenario } from '@/lib/tools';
import { KeepaliveScanner, tapKeepalives, type KeepaliveStyle } from './keepalive-tap';
import { launchRun } from './launch-run';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function scanned(chunks: readonly string[]): KeepaliveStyle[] {
  const seen: KeepaliveStyle[] = [];
  const scanner = new KeepaliveScanner((style) => seen.push(style));
  for (const chunk of chunks) scanner.scan(bytes(chunk));
  return seen;
}

describe('KeepaliveScanner', () => {
  const anthropic =
    'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type": "ping"}\n\nevent: content_block_delta\ndata: {"text":"event: ping"}\n\n';

  it('counts Anthropic ping events and SSE comment lines, nothing else', () => {
    expect(scanned([anthropic])).toEqual(['ping']);
    expect(scanned([': keepalive\n\ndata: {"a":1}\n\n: OPENROUTER PROCESSING\r\n\r\n'])).toEqual([
      'comment',
      'comment',
    ]);
    expect(scanned(['event:ping\n', 'event: pings\n', 'data: : not a comment\n', ' event: ping\n'])).toEqual([
      'ping',
    ]);
  });

  it('finds them wherever the chunks split the bytes', () => {
    const text = `${anthropic}: keepalive\n\n${anthropic}`;
    const oneByOne = Array.from(text);
    expect(scanned(oneByOne)).toEqual(['ping', 'comment', 'ping']);
    for (let cut = 1; cut < text.length; cut += 7)
      expect(scanned([text.slice(0, cut), text.slice(cut)])).toEqual(['ping', 'comment', 'ping']);
  });
});

describe('tapKeepalives', () => {
  it('hands on the same chunk objects, reads only when read, and reports the end once', async () => {
    const chunks = [bytes(': hi\n\n'), bytes('event: ping\ndata: {}\n\n'), bytes('event: x\ndata: {}\n\n')];
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled === chunks.length) return controller.close();
          controller.enqueue(chunks[pulled++]!);
        },
      },
      { highWaterMark: 0 },
    );
    const reports: string[] = [];
    const fetch = tapKeepalives({
      fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      onRequest: () => (info) => reports.push(`${info.phase}:${info.style}`),
    });
    const reader = (await fetch('http://127.0.0.1/')).body!.getReader();
    expect(pulled).toBe(0);
    const got: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got.push(value);
      expect(pulled).toBe(got.length);
    }
    expect(got.every((chunk, i) => chunk === chunks[i])).toBe(true);
    expect(reports).toEqual(['beat:comment', 'beat:ping', 'end:ping']);
  });
});

/**
 * The whole stack with a real vendor's keepalives: the real SDK over real HTTP to a local
 * stand-in (the simulated vendor served on 127.0.0.1) whose streams carry extra keepalives,
 * as Anthropic's pings and OpenAI-compatible servers' comment lines do.
 */
describe("a real vendor's keepalives reach the run log", () => {
  const servers: SimServer[] = [];
  const standIn = async (dialect: 'anthropic' | 'openai', extra: string): Promise<string> => {
    const options = {
      clock: new RealClock(0.01),
      random: createRandom(3),
      policy: createPolicy('worker', getScenario('fix-failing-test')!),
    };
    const sim = dialect === 'anthropic' ? createSimAnthropic(options) : createSimOpenAI(options);
    const server = await startSimServer({
      dialect,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await sim(input, init);
        if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream'))
          return response;
        const prefix = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes(extra)), c.close()) });
        const joined = concat([prefix, response.body]);
        return new Response(joined, { status: response.status, headers: response.headers });
      }) as typeof fetch,
    });
    servers.push(server);
    return dialect === 'openai' ? `${server.url}/v1` : server.url;
  };
  let anthropicUrl = '';
  let compatibleUrl = '';
  beforeAll(async () => {
    anthropicUrl = await standIn('anthropic', 'event: ping\ndata: {"type": "ping"}\n\n'.repeat(2));
    compatibleUrl = await standIn('openai', ': keepalive\n\n'.repeat(2));
    // The stand-ins are on 127.0.0.1, which a run may aim at with its own key only when the environment names it.
    process.env.LOOP_LAB_ALLOWED_REQUEST_HOSTS = [anthropicUrl, compatibleUrl]
      .map((u) => new URL(u).host)
      .join(' ');
  });
  afterAll(async () => {
    delete process.env.LOOP_LAB_ALLOWED_REQUEST_HOSTS;
    await Promise.all(servers.map((s) => s.close()));
  });

  async function run(provider: Record<string, unknown>): Promise<RunEvent[]> {
    const config = RunConfigSchema.parse({
      provider: { ...provider, keySource: 'request' },
      clock: 'real',
      timeScale: 0.01,
      seed: 3,
      budgets: { maxIterations: 3 },
    });
    const events: RunEvent[] = [];
    await launchRun({
      runId: 'keepalive-tap',
      config,
      apiKey: 'sk-test-keepalive',
      onEvent: (e) => events.push(e),
    }).done;
    return events;
  }

  function finalCounts(events: RunEvent[]): Map<number, EventOf<'keepalive'>> {
    const last = new Map<number, EventOf<'keepalive'>>();
    for (const e of events) if (e.event === 'keepalive') last.set(e.request_no, e);
    return last;
  }

  it("logs Anthropic's ping events per request (the sim's own ping and the two extra), on the request that got them", async () => {
    const events = await run({ vendor: 'anthropic', model: 'claude-sim-sonnet', baseUrl: anthropicUrl });
    expect(events.at(-1)).toMatchObject({ event: 'terminate' });
    const requests = events.filter((e): e is EventOf<'model_request'> => e.event === 'model_request');
    const streamed = events.filter((e) => e.event === 'stream_open').length;
    expect(streamed).toBeGreaterThan(1);
    const counts = finalCounts(events);
    expect(counts.size).toBe(streamed);
    for (const [requestNo, e] of counts) {
      expect(requests.map((r) => r.request_no)).toContain(requestNo);
      expect(e).toMatchObject({ style: 'ping', count: 3 });
    }
  });

  it("logs an OpenAI-compatible server's comment lines", async () => {
    const events = await run({ vendor: 'openai-compatible', model: 'gpt-sim-4o', baseUrl: compatibleUrl });
    expect(events.at(-1)).toMatchObject({ event: 'terminate' });
    const counts = finalCounts(events);
    expect(counts.size).toBe(events.filter((e) => e.event === 'stream_open').length);
    for (const e of counts.values()) expect(e).toMatchObject({ style: 'comment', count: 2 });
  });
});

function concat(streams: ReadableStream<Uint8Array>[]): ReadableStream<Uint8Array> {
  const readers = streams.map((s) => s.getReader());
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (readers.length > 0) {
        const { done, value } = await readers[0]!.read();
        if (!done) return controller.enqueue(value);
        readers.shift();
      }
      controller.close();
    },
  });
}
