import Anthropic from '@anthropic-ai/sdk';
import { RealClock } from '@/lib/clock';
import { replayFetch, runBenchLoop, type Exchange } from './record-run';
import { cpuTime, median, percentile } from './stats';

/** The 50-turn run through the whole engine (rendering, stream parts, events, watchdog), over replayed bytes. */
export async function engineRun(exchanges: readonly Exchange[]): Promise<number> {
  const events = await runBenchLoop({ fetch: replayFetch(exchanges), clock: new RealClock(1) });
  if (events.at(-1)?.event !== 'terminate') throw new Error('bench run did not terminate');
  return events.length;
}

/**
 * The same SDK parsing the same bytes for the same request bodies, with no engine. Each
 * request carries an abort signal, as any caller that can stop a stream must pass one.
 */
export async function sdkOnly(exchanges: readonly Exchange[]): Promise<number> {
  const client = new Anthropic({
    apiKey: 'sim-key',
    baseURL: 'http://sim.anthropic.local',
    fetch: replayFetch(exchanges),
    maxRetries: 0,
    // As the engine's adapter builds its client (lib/providers/anthropic-adapter.ts): like with like.
    openTelemetry: false,
  });
  let seen = 0;
  for (const exchange of exchanges) {
    const stream = await client.messages.create(
      { ...(exchange.body as Anthropic.MessageCreateParamsStreaming), stream: true },
      { signal: new AbortController().signal },
    );
    for await (const event of stream) seen += event.type.length > 0 ? 1 : 0;
  }
  return seen;
}

/**
 * CPU time of the engine run divided by CPU time of the bare SDK, measured alternately in
 * one process (warm-up first) over `rounds` pairs.
 */
export async function measureEngineOverhead(options: {
  exchanges: readonly Exchange[];
  rounds: number;
}): Promise<{
  engineMs: number;
  sdkMs: number;
  ratio: number;
  /** The interquartile range of the paired ratios. */
  spread: [number, number];
  events: number;
}> {
  const { exchanges, rounds } = options;
  let events = 0;
  // Warm-up: let the JIT settle both paths before anything is measured.
  for (let i = 0; i < 10; i++) {
    events = await engineRun(exchanges);
    await sdkOnly(exchanges);
  }
  const engine: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < rounds; i++) {
    engine.push(await cpuTime(async () => void (await engineRun(exchanges))));
    sdk.push(await cpuTime(async () => void (await sdkOnly(exchanges))));
  }
  // Each engine sample is paired with the SDK sample measured right after it, so drift in the
  // machine's speed during the bench cancels out; the ratio reported is the median pair.
  const ratios = engine.map((ms, i) => ms / sdk[i]!);
  return {
    engineMs: median(engine),
    sdkMs: median(sdk),
    ratio: median(ratios),
    spread: [percentile(ratios, 25), percentile(ratios, 75)],
    events,
  };
}
