import { RealClock } from '@/lib/clock';
import type { Message } from '@/lib/protocol';
import { createProvider } from '@/lib/providers';
import type { ModelRequest, ProviderAdapter, StreamPart } from '@/lib/providers/types';
import { engineRun, sdkOnly } from './engine-overhead';
import { replayFetch, runBenchLoop, type Exchange } from './record-run';
import { cpuTime, median, percentile } from './stats';

/**
 * The floor under the engine-overhead figure: the provider layer alone, on the requests the
 * engine's run made. Each neutral request (the trajectory as the loop holds it) is rendered
 * to the vendor's wire format, sent through the same SDK over the same recorded bytes, and
 * every SDK event translated into stream parts — and nothing else: no loop, no events, no
 * watchdog, no context management, no assembling of messages. Takeover needs an engine that
 * renders from a neutral trajectory, so this is the least any such engine pays on top of the
 * bare SDK; if it were above the target, no engine built that way could meet it.
 */
export interface EngineRequests {
  /** The neutral requests the loop handed its provider, in order. */
  requests: ModelRequest[];
  /** The JSON bodies the SDK sent for them, as sent. */
  bodies: string[];
}

/** A fetch that hands each request's body over before the inner fetch answers it. */
function bodiesOf(inner: typeof fetch, onBody: (body: string) => void): typeof fetch {
  return (input, init) => {
    onBody(String(init?.body));
    return inner(input, init);
  };
}

/** Runs the bench conversation through the engine once and keeps what the loop asked its provider for. */
export async function recordEngineRequests(exchanges: readonly Exchange[]): Promise<EngineRequests> {
  const requests: ModelRequest[] = [];
  const bodies: string[] = [];
  const recording = (provider: ProviderAdapter): ProviderAdapter => ({
    vendor: provider.vendor,
    dialect: provider.dialect,
    stream(request, options) {
      // A message is never changed once in the log; the list holding them may still grow.
      requests.push({ ...request, messages: [...request.messages] });
      return provider.stream(request, options);
    },
  });
  await runBenchLoop({
    fetch: bodiesOf(replayFetch(exchanges), (body) => bodies.push(body)),
    clock: new RealClock(1),
    wrap: recording,
  });
  return { requests, bodies };
}

/**
 * New message objects for one run, as an engine run builds its own: rendering and token
 * caches are keyed on a message's identity, so reused objects would skip work a run does.
 * One clone for all requests keeps a message shared between requests shared, as in the run.
 */
export function freshRequests(requests: readonly ModelRequest[]): ModelRequest[] {
  const messages = structuredClone(requests.map((request) => request.messages)) as Message[][];
  return requests.map((request, i) => ({ ...request, messages: messages[i]! }));
}

/**
 * The provider layer alone over the recorded bytes: a new provider (as each engine run
 * makes), each request streamed to its end with an abort signal, parts handed to `onPart`.
 * Returns the stream parts seen.
 */
export async function providerOnly(options: {
  requests: readonly ModelRequest[];
  exchanges: readonly Exchange[];
  onBody?: (body: string) => void;
  onPart?: (request: number, part: StreamPart) => void;
}): Promise<number> {
  const { requests, exchanges, onBody, onPart } = options;
  const replay = replayFetch(exchanges);
  const provider = createProvider({
    vendor: 'sim-anthropic',
    fetch: onBody ? bodiesOf(replay, onBody) : replay,
    maxRetries: 0,
  });
  let parts = 0;
  for (const [i, request] of requests.entries()) {
    await provider.stream(request, {
      signal: new AbortController().signal,
      onPart: onPart ? (part) => (parts++, onPart(i, part)) : () => void parts++,
    });
  }
  return parts;
}

/**
 * Proves the floor does the work the engine's run did: the same number of requests, each
 * body byte for byte the body the engine's SDK sent. Throws naming the first that differs.
 */
export async function assertSameBodies(
  recorded: EngineRequests,
  exchanges: readonly Exchange[],
): Promise<void> {
  const sent: string[] = [];
  await providerOnly({
    requests: freshRequests(recorded.requests),
    exchanges,
    onBody: (body) => sent.push(body),
  });
  if (sent.length !== recorded.bodies.length)
    throw new Error(`the floor sent ${sent.length} requests, the engine's run ${recorded.bodies.length}`);
  sent.forEach((body, i) => {
    if (body !== recorded.bodies[i]) {
      throw new Error(
        `the floor's request ${i + 1} differs from the engine's (${body.length} vs ${recorded.bodies[i]!.length} characters): it would not measure the same work`,
      );
    }
  });
}

export interface EngineFloor {
  /** Median CPU a run: the provider layer alone, the whole engine, the bare SDK. */
  floorMs: number;
  engineMs: number;
  sdkMs: number;
  /** Paired medians (floor ÷ SDK, engine ÷ SDK) and their interquartile ranges. */
  floorRatio: number;
  floorSpread: [number, number];
  engineRatio: number;
  engineSpread: [number, number];
}

/**
 * The floor, the engine and the bare SDK measured in turn in one process (warm-up first),
 * each round's floor and engine divided by that round's SDK, so drift cancels out. The
 * floor's fresh messages are cloned outside the timed part.
 */
export async function measureEngineFloor(options: {
  exchanges: readonly Exchange[];
  requests: readonly ModelRequest[];
  rounds: number;
}): Promise<EngineFloor> {
  const { exchanges, requests, rounds } = options;
  for (let i = 0; i < 10; i++) {
    await providerOnly({ requests: freshRequests(requests), exchanges });
    await engineRun(exchanges);
    await sdkOnly(exchanges);
  }
  const floor: number[] = [];
  const engine: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const fresh = freshRequests(requests);
    floor.push(await cpuTime(async () => void (await providerOnly({ requests: fresh, exchanges }))));
    engine.push(await cpuTime(async () => void (await engineRun(exchanges))));
    sdk.push(await cpuTime(async () => void (await sdkOnly(exchanges))));
  }
  const floorRatios = floor.map((ms, i) => ms / sdk[i]!);
  const engineRatios = engine.map((ms, i) => ms / sdk[i]!);
  return {
    floorMs: median(floor),
    engineMs: median(engine),
    sdkMs: median(sdk),
    floorRatio: median(floorRatios),
    floorSpread: [percentile(floorRatios, 25), percentile(floorRatios, 75)],
    engineRatio: median(engineRatios),
    engineSpread: [percentile(engineRatios, 25), percentile(engineRatios, 75)],
  };
}
