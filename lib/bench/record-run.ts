import { VirtualClock, createRandom, type Clock } from '@/lib/clock';
import { EventLog, runLoop, type ToolRunner } from '@/lib/engine';
import { resolveRecovery, RunConfigSchema, type RunConfig, type RunEvent } from '@/lib/protocol';
import { createProvider } from '@/lib/providers';
import { createSimAnthropic, type Policy } from '@/lib/sim';
import type { ProviderAdapter, ToolSpec } from '@/lib/providers/types';

/**
 * One recorded exchange: the request body the SDK sent and the bytes the vendor answered,
 * in the chunks they arrived in (one SSE record or so per chunk, as a streaming server writes).
 */
export interface Exchange {
  body: unknown;
  chunks: Uint8Array[];
}

export const BENCH_TURNS = 50;

export const BENCH_TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

/** A model that reads one file a turn for 49 turns, thinking and talking as it goes, then ends. */
const benchPolicy: Policy = (request) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  const thinking =
    `Turn ${turn}: the previous result looked fine, so the next file to read is module ${turn}. `.repeat(4);
  const text =
    `Reading module ${turn} to follow the call chain through the project and find where the value changes. `.repeat(
      3,
    );
  if (turn >= BENCH_TURNS)
    return { thinking, text: 'Done: every module was read and the flow is clear.', toolCalls: [] };
  return {
    thinking,
    text,
    toolCalls: [{ name: 'read_file', argsText: JSON.stringify({ path: `src/module-${turn}.js` }) }],
  };
};

/** Tool results are fixed text, so the engine side and the SDK side see the same conversation. */
export const benchExecutor: ToolRunner = {
  async execute(call) {
    return {
      result: {
        type: 'tool_result',
        callId: call.id,
        content: `// ${call.argsText}\nexport const value = 42;\n`.repeat(8),
        isError: false,
      },
    };
  },
};

export const benchConfig: RunConfig = RunConfigSchema.parse({
  provider: { vendor: 'sim-anthropic' },
  clock: 'virtual',
  budgets: { maxIterations: BENCH_TURNS + 1, maxCostUsd: 1000 },
});

/** Runs the 50-turn conversation once against the simulated vendor and records every exchange. */
export async function recordBenchRun(): Promise<Exchange[]> {
  const clock = new VirtualClock();
  const sim = createSimAnthropic({ clock, random: createRandom(7), policy: benchPolicy });
  const exchanges: Exchange[] = [];
  const recorder: typeof fetch = async (input, init) => {
    const response = await sim(input, init);
    const chunks: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    exchanges.push({ body: JSON.parse(String(init?.body)), chunks });
    return new Response(streamOf(chunks), { status: response.status, headers: response.headers });
  };
  await runBenchLoop({ fetch: recorder, clock });
  // 50 turns and the background title call at the end.
  if (exchanges.length !== BENCH_TURNS + 1)
    throw new Error(`bench recording made ${exchanges.length} requests, expected ${BENCH_TURNS + 1}`);
  return exchanges;
}

/**
 * The bench conversation through the engine loop over a given transport; returns its log.
 * `wrap` sees the provider the loop is given (the engine floor records the loop's requests).
 */
export async function runBenchLoop(options: {
  fetch: typeof fetch;
  clock: Clock;
  wrap?: (provider: ProviderAdapter) => ProviderAdapter;
}): Promise<RunEvent[]> {
  const { clock } = options;
  const events: RunEvent[] = [];
  const provider = createProvider({ vendor: 'sim-anthropic', fetch: options.fetch, maxRetries: 0 });
  const log = new EventLog('bench', clock, (event) => events.push(event));
  await runLoop({
    config: benchConfig,
    recovery: resolveRecovery('codesmith'),
    provider: options.wrap?.(provider) ?? provider,
    model: 'claude-sim-sonnet',
    fallbackModel: 'claude-sim-haiku',
    system: 'You are a careful coding agent.',
    task: 'Read every module and explain the flow.',
    tools: BENCH_TOOLS,
    executor: benchExecutor,
    clock,
    random: createRandom(1),
    emit: log.emit,
    signal: new AbortController().signal,
  });
  return events;
}

/** A fetch that answers the i-th request with the i-th recorded body, chunk for chunk, instantly. */
export function replayFetch(exchanges: readonly Exchange[]): typeof fetch {
  let i = 0;
  return async () => {
    const exchange = exchanges[i++ % exchanges.length]!;
    return new Response(streamOf(exchange.chunks), {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_bench' },
    });
  };
}

function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}
