import { createRandom, VirtualClock } from '@/lib/clock';
import { dialectFor } from '@/lib/dialects';
import { withFaults } from '@/lib/faults';
import { dialectOf, resolveRecovery, vendorRow } from '@/lib/protocol';
import { simulatedPolicy } from '@/lib/runtime/launch-run';
import { createVendorTransports } from '@/lib/runtime/vendor-transports';
import { getScenario } from '@/lib/tools';
import { readWithSdk, type RecordedExchange, type Trajectory } from './record-trajectory';

/**
 * The floor under a sweep run: the simulated vendor producing a recorded run's responses and
 * the same SDK parsing them, with nothing else. A run's requests are sent again, body for
 * body, to a simulated vendor built as the run built it (its seed, its fault plan, a virtual
 * clock), and each answer is read to its end by the vendor's own SDK. No engine, no tools,
 * no store. What this costs is what any engine would have to pay on top of nothing.
 */
export interface SimSdkOptions {
  /** Called with each response's bytes as the SDK read them (for the identity check). */
  onResponse?: (index: number, status: number, chunks: Uint8Array[]) => void;
}

/**
 * A fetch over the run's own simulated vendor and fault wrapper, on a fresh virtual clock
 * that each request first moves on to the run time the run sent it at.
 */
function simulatedTransport(trajectory: Trajectory): typeof fetch {
  const { config } = trajectory;
  const scenario = getScenario(config.scenario);
  if (!scenario) throw new Error(`unknown scenario "${config.scenario}"`);
  const clock = new VirtualClock();
  const random = createRandom(config.seed);
  const promptCache = resolveRecovery(config.preset, config.recovery).cache.promptCaching;
  const transports = createVendorTransports({
    clock,
    random,
    policy: simulatedPolicy(config, scenario),
    first: config.provider.vendor,
    promptCache,
  });
  let index = 0;
  const faulted = withFaults({
    fetch: (input, init) => transports(config.provider.vendor)(input, init),
    dialect: dialectFor({ vendor: config.provider.vendor, model: config.provider.model }).wire,
    plan: () => config.faults,
    clock,
    random: random.fork('faults'),
    // The recorded run said which of its requests were background calls, in order.
    isBackground: () => trajectory.exchanges[index++]?.background ?? false,
    onInject: () => {},
  });
  let sent = 0;
  return async (input, init) => {
    const at = trajectory.exchanges[sent++]?.at ?? 0;
    if (at > clock.now()) await clock.sleep(at - clock.now());
    return faulted(input, init);
  };
}

/** Wraps a fetch so every response's bytes are handed over once the SDK has read them. */
function capture(inner: typeof fetch, onResponse: NonNullable<SimSdkOptions['onResponse']>): typeof fetch {
  let index = 0;
  return async (input, init) => {
    const response = await inner(input, init);
    const i = index++;
    const chunks: Uint8Array[] = [];
    if (!response.body) {
      onResponse(i, response.status, chunks);
      return response;
    }
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        chunks.push(chunk.slice());
        controller.enqueue(chunk);
      },
      flush() {
        onResponse(i, response.status, chunks);
      },
    });
    return new Response(response.body.pipeThrough(copy), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * One recorded run again through the simulated vendor and the SDK, as `parseWithSdkAlone`
 * drives the SDK (no retries, an abort signal, every stream read to its end, errors caught).
 * Returns the stream events seen.
 */
export async function runSimWithSdk(trajectory: Trajectory, options: SimSdkOptions = {}): Promise<number> {
  const transport = simulatedTransport(trajectory);
  const fetch = options.onResponse ? capture(transport, options.onResponse) : transport;
  return readWithSdk(trajectory, fetch);
}

/**
 * The simulated vendor alone: the same requests as the SDK would send them (its JSON body,
 * its key header), each answer drained by a plain stream reader. No SDK parsing; what the
 * vendor costs by itself. Returns the bytes read.
 */
export async function runSimAlone(trajectory: Trajectory, options: SimSdkOptions = {}): Promise<number> {
  const fetch = simulatedTransport(trajectory);
  const url = `${vendorRow(trajectory.vendor).baseUrl}${dialectOf(trajectory.vendor) === 'anthropic' ? '/v1/messages' : '/chat/completions'}`;
  const headers = new Headers({
    'content-type': 'application/json',
    'x-api-key': 'sim-key',
    authorization: 'Bearer sim-key',
  });
  let bytes = 0;
  for (const [i, exchange] of trajectory.exchanges.entries()) {
    const chunks: Uint8Array[] = [];
    try {
      const body = JSON.stringify({ ...(exchange.body as object), stream: true });
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: new AbortController().signal,
      });
      if (response.body) {
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          bytes += read.value.length;
          if (options.onResponse) chunks.push(read.value.slice());
        }
      }
      options.onResponse?.(i, response.status, chunks);
    } catch {
      options.onResponse?.(i, 0, chunks);
    }
  }
  return bytes;
}

const joined = (chunks: readonly Uint8Array[]): Buffer => Buffer.concat(chunks);

/**
 * Proves the ceiling measures the same work the run did: every response the simulated
 * vendor produces for the recorded request bodies, read through the SDK and read alone, must
 * equal, byte for byte, what the run's SDK read. Throws naming the first exchange that differs.
 */
export async function assertSameBytes(trajectory: Trajectory): Promise<void> {
  for (const run of [runSimWithSdk, runSimAlone]) await assertSame(trajectory, run);
}

async function assertSame(trajectory: Trajectory, run: typeof runSimWithSdk): Promise<void> {
  const produced: { status: number; bytes: Buffer }[] = [];
  await run(trajectory, {
    onResponse: (i, status, chunks) => (produced[i] = { status, bytes: joined(chunks) }),
  });
  const recorded: readonly RecordedExchange[] = trajectory.exchanges;
  if (produced.length !== recorded.length) {
    throw new Error(
      `simulated vendor answered ${produced.length} requests, the run made ${recorded.length} (seed ${trajectory.config.seed})`,
    );
  }
  recorded.forEach((exchange, i) => {
    const mine = produced[i];
    if (!mine || mine.status !== exchange.status || !mine.bytes.equals(joined(exchange.chunks))) {
      throw new Error(
        `simulated vendor's response ${i + 1} differs from the run's (seed ${trajectory.config.seed}, status ${mine?.status} vs ${exchange.status}, ` +
          `${mine?.bytes.length ?? 0} vs ${joined(exchange.chunks).length} bytes): the ceiling would not measure the same work`,
      );
    }
  });
}
