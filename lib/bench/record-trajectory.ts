import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { vendorRow, type RunConfig, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { sweepRunId } from '@/lib/sweeps/run-sweep-job';
import type { SweepJob } from '@/lib/sweeps/expand-grid';

/**
 * One model request of a run as the SDK saw it: where it went, the body it sent, and the
 * response's status, headers and bytes in the chunks they arrived in (after the fault
 * wrapper, so an injected 529 or a cut stream is recorded as the SDK met it).
 */
export interface RecordedExchange {
  url: string;
  body: unknown;
  status: number;
  headers: [string, string][];
  chunks: Uint8Array[];
  /** Whether the engine sent it as a background call (title, summary): fault rules may aim at either kind. */
  background: boolean;
  /** Run time (ms, the run's clock) when it went out: time-aimed fault rules read the clock. */
  at: number;
}

/** A sweep job's run, recorded: every exchange, and the run's own log. */
export interface Trajectory {
  vendor: SweepJob['vendor'];
  /** The job's config (seed, fault plan, scenario): enough to build the run's simulated vendor again. */
  config: RunConfig;
  exchanges: RecordedExchange[];
  events: RunEvent[];
}

/**
 * Runs one sweep job in this process exactly as a worker would (launchRun on the virtual
 * clock) and records the bytes of every model exchange as they pass to the SDK. The tap
 * copies chunks as the SDK reads them, so the run's timing on its clock is unchanged.
 */
export async function recordTrajectory(job: SweepJob): Promise<Trajectory> {
  const exchanges: RecordedExchange[] = [];
  const events: RunEvent[] = [];
  // The engine logs each model_request just before sending it, as the fault wrapper reads it.
  let background = false;
  let at = 0;
  const tapFetch =
    (inner: typeof fetch): typeof fetch =>
    async (input, init) => {
      const response = await inner(input, init);
      const exchange: RecordedExchange = {
        url: input instanceof Request ? input.url : String(input),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
        status: response.status,
        headers: [...response.headers],
        chunks: [],
        background,
        at,
      };
      exchanges.push(exchange);
      if (!response.body) return response;
      const copy = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          exchange.chunks.push(chunk.slice());
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(copy), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  const handle = launchRun({
    runId: sweepRunId('record', job.index),
    config: job.config,
    onEvent: (e) => {
      if (e.event === 'model_request') {
        background = e.background;
        at = e.ts;
      }
      events.push(e);
    },
    tapFetch,
  });
  await handle.done;
  return { vendor: job.vendor, config: job.config, exchanges, events };
}

/** A fetch that answers each request with the next recorded response, chunk for chunk, at once. */
function replay(exchanges: readonly RecordedExchange[]): typeof fetch {
  let i = 0;
  return async () => {
    const exchange = exchanges[i++]!;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of exchange.chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return new Response(body, { status: exchange.status, headers: exchange.headers });
  };
}

/**
 * The bare SDK parsing a recorded trajectory: the same request bodies sent through the
 * vendor's own SDK (no retries, an abort signal as any caller passes), every stream read to
 * its end, every error the SDK raises on the recorded bytes caught as the engine would meet
 * it. No engine, no simulated vendor, no tools, no store. Returns the stream events seen.
 */
export async function parseWithSdkAlone(trajectory: Trajectory): Promise<number> {
  return readWithSdk(trajectory, replay(trajectory.exchanges));
}

/**
 * Sends every recorded request body of a trajectory through its vendor's own SDK over
 * `fetch` (no retries, an abort signal as any caller passes), reading every stream to its end
 * and catching every error as the engine would meet it. Returns the stream events seen.
 */
export async function readWithSdk(trajectory: Trajectory, fetch: typeof globalThis.fetch): Promise<number> {
  let seen = 0;
  const row = vendorRow(trajectory.vendor);
  if (row.sdk === 'anthropic') {
    const client = new Anthropic({
      apiKey: 'sim-key',
      baseURL: row.baseUrl ?? null,
      fetch,
      maxRetries: 0,
    });
    for (const exchange of trajectory.exchanges) {
      try {
        const stream = await client.messages.create(
          { ...(exchange.body as Anthropic.MessageCreateParamsStreaming), stream: true },
          { signal: new AbortController().signal },
        );
        for await (const event of stream) seen += event.type.length > 0 ? 1 : 0;
      } catch {
        seen += 1;
      }
    }
    return seen;
  }
  const client = new OpenAI({
    apiKey: 'sim-key',
    baseURL: row.baseUrl ?? null,
    fetch,
    maxRetries: 0,
  });
  for (const exchange of trajectory.exchanges) {
    try {
      const stream = await client.chat.completions.create(
        { ...(exchange.body as OpenAI.ChatCompletionCreateParamsStreaming), stream: true },
        { signal: new AbortController().signal },
      );
      for await (const chunk of stream) seen += chunk.choices.length >= 0 ? 1 : 0;
    } catch {
      seen += 1;
    }
  }
  return seen;
}
