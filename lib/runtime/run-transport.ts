import type { Clock, Random } from '@/lib/clock';
import type { Emit } from '@/lib/engine';
import { createCassettePlayer, recordExchanges, recordWire } from '@/lib/cassettes';
import { withFaults, type FaultPlanPosition } from '@/lib/faults';
import { isSimulated, vendorRows, type FaultPlan, type RunConfig, type Vendor } from '@/lib/protocol';
import type { Policy } from '@/lib/sim';
import { bindVendor, type BoundVendor, type VendorTarget } from './bind-vendor';
import { createKeepaliveLog } from './keepalive-log';
import { tapKeepalives } from './keepalive-tap';
import { createSdkRetryHold } from './sdk-retry-hold';
import { sdkRetryLayer } from './sdk-retry-layer';
import type { LaunchOptions } from './types';
import { createVendorTransports } from './vendor-transports';

/** The name of the run's random stream the fault wrapper draws from (a fork replays its dice: fork-faults.ts). */
export const FAULTS_STREAM = 'faults';

export interface RunTransportOptions {
  config: RunConfig;
  clock: Clock;
  random: Random;
  /** The simulated model behind every simulated vendor. */
  policy: Policy;
  /** Whether the simulated vendors keep a prompt cache (the run's recovery.cache.promptCaching). */
  promptCache: boolean;
  /** The SDK's own retries (the preset's); above 0 each is logged (sdk_retry) and waits on the run clock. */
  sdkMaxRetries: number;
  /** Where fault injections, misses and keepalives are written. */
  log: { emit: Emit; readonly iteration: number; readonly inBackground: boolean };
  /** The fault plan in force, read per request. */
  faults: () => FaultPlan;
  /** Where the plan starts: a fork's parent's position at the copied turn (absent: the start). */
  faultsFrom?: FaultPlanPosition;
  /** The vendor in force (a swap changes it): where each request is routed. */
  inForce: () => BoundVendor;
  /** The caller's views of the transport: each request body at the vendor, the fetch the SDK calls. */
  taps: Pick<LaunchOptions, 'onVendorRequest' | 'onExchange' | 'onWire' | 'gateNetwork'> & {
    tapFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  };
  /** The cassette a replayed run is served from (config.replay). */
  cassette?: LaunchOptions['cassette'];
  /** The run's redaction in force, for what a recording keeps (launchRun passes the run log's; absent: a test's transport records nothing secret). */
  redact?: (text: string) => string;
}

/**
 * A run's transport, from the SDK down: the SDK-retry hold and layer (its retries logged and
 * paced on the run clock), the caller's tap, the request
 * count, the wire view's recorder (what the SDK sent and received), one fault wrapper over every vendor (one request count, one plan), then a routing
 * fetch to the simulated vendor in force or — for a real vendor — the network through the
 * keepalive tap. Returns the binder: a provider adapter over the real SDK on that transport,
 * for the first vendor and for every swap.
 */
export function createRunTransport(options: RunTransportOptions): (target: VendorTarget) => BoundVendor {
  const { config, clock, random, log, inForce } = options;
  const transports = createVendorTransports({
    clock,
    random,
    policy: options.policy,
    first: config.provider.vendor,
    promptCache: options.promptCache,
  });
  // Keepalives are logged the same way whether the fault wrapper sent them or a real vendor did.
  const keepalives = createKeepaliveLog({ clock, emit: log.emit, iteration: () => log.iteration });
  const realVendor = tapRealVendor(transports, inForce, keepalives);
  const { gateNetwork } = options.taps;
  const network = gateNetwork
    ? gateNetwork(realVendor.fetch, {
        clock,
        note: (message) => log.emit({ event: 'log', iteration: log.iteration, level: 'info', message }),
      })
    : realVendor.fetch;
  const route: typeof fetch = (input, init) => {
    const { vendor } = inForce();
    options.taps.onVendorRequest?.({ vendor, body: typeof init?.body === 'string' ? init.body : '' });
    return isSimulated(vendor) ? transports(vendor)(input, init) : network(input, init);
  };
  const source = config.replay ? replaySource(options, transports, realVendor.requestNo) : route;
  const { onExchange } = options.taps;
  const recorded = onExchange
    ? recordExchanges({
        fetch: source,
        clock,
        requestNo: realVendor.requestNo,
        vendor: () => inForce().vendor,
        dialect: () => inForce().dialect.wire,
        redact: options.redact ?? ((text) => text),
        onExchange,
      })
    : source;
  const faultWrapper = withFaults({
    fetch: recorded,
    dialect: () => inForce().dialect.wire,
    plan: options.faults,
    clock,
    random: random.fork(FAULTS_STREAM),
    ...(options.faultsFrom ? { from: options.faultsFrom } : {}),
    isBackground: () => log.inBackground,
    onInject: ({ requestNo, rule, label }) =>
      log.emit({
        event: 'fault_injected',
        iteration: log.iteration,
        request_no: requestNo,
        rule_id: rule.id,
        action: rule.action.type,
        label,
      }),
    onKeepalive: keepalives,
    onMiss: ({ requestNo, label }) =>
      log.emit({
        event: 'log',
        iteration: log.iteration,
        level: 'warn',
        message: `fault "${label}" could not apply: response ${requestNo} ended before the fault's point (nothing was changed)`,
      }),
  });
  // The wire view's recorder sits above the fault wrapper: it keeps what the SDK sent and received.
  const { onWire } = options.taps;
  const wired = onWire
    ? recordWire({
        fetch: faultWrapper,
        clock,
        requestNo: realVendor.requestNo,
        vendor: () => inForce().vendor,
        dialect: () => inForce().dialect.wire,
        redact: options.redact ?? ((text) => text),
        onWire,
      })
    : faultWrapper;
  const faulted = realVendor.numbered(wired);
  const tapped = options.taps.tapFetch ? options.taps.tapFetch(faulted) : faulted;
  // The SDK's own retries: each is an sdk_retry event and waits on the run clock; between a
  // failed response and the SDK's next request the virtual clock is held still.
  const sdkOn = options.sdkMaxRetries > 0;
  const sdkHold = sdkOn ? createSdkRetryHold(clock) : undefined;
  const sdkFetch = sdkOn
    ? sdkRetryLayer(tapped, {
        clock,
        random: random.fork('sdk-retries'),
        maxRetries: options.sdkMaxRetries,
        log,
      })
    : tapped;
  return (target) => {
    const bound = bindVendor({
      target,
      fetch: sdkHold ? sdkHold.wrapFetch(sdkFetch) : sdkFetch,
      maxRetries: options.sdkMaxRetries,
      handling: target.takeover ?? config.takeover,
      holdClock: (work) => clock.hold(work),
    });
    return sdkHold ? { ...bound, provider: sdkHold.wrapProvider(bound.provider) } : bound;
  };
}

/**
 * A replayed run's vendor: the cassette player, with the simulated vendor of the dialect in
 * force behind it for a run set to go on off the recording (asked for its own default model
 * when the recording came from a real vendor, whose model it does not serve).
 */
function replaySource(
  options: RunTransportOptions,
  transports: (vendor: Vendor) => typeof fetch,
  requestNo: (init: RequestInit | undefined) => number,
): typeof fetch {
  const { config, clock, log, inForce } = options;
  if (!options.cassette)
    throw new Error(`the run replays cassette "${config.replay?.cassette}" but none was loaded`);
  return createCassettePlayer({
    cassette: options.cassette,
    clock,
    offRecording: config.replay?.offRecording ?? 'stop',
    requestNo,
    dialect: () => inForce().dialect.wire,
    simulated: () => {
      const { vendor } = inForce();
      if (isSimulated(vendor)) return { fetch: transports(vendor), label: `the simulated model (${vendor})` };
      const wire = inForce().dialect.wire;
      const sim = vendorRows().find((row) => row.simulated && row.wire === wire);
      if (!sim)
        throw new Error(
          `no simulated vendor speaks the ${wire} wire format, so the replay cannot go on off the recording`,
        );
      return {
        fetch: transports(sim.id),
        model: sim.defaultModel,
        label: `the simulated model (${sim.id}, ${sim.defaultModel})`,
      };
    },
    onOffRecording: (report) =>
      log.emit({
        event: 'off_recording',
        iteration: log.iteration,
        request_no: report.requestNo,
        ...(report.recordedNo !== undefined ? { recorded_no: report.recordedNo } : {}),
        differs: report.differs,
        next: report.next,
        why: report.why,
      }),
  });
}

/**
 * A real vendor's fetch with its keepalives counted, numbered with the fault wrapper's request
 * count: `numbered` wraps the fault wrapper and records each request's number by its init,
 * which the wrapper passes through to the tap beneath it.
 */
function tapRealVendor(
  transports: (vendor: Vendor) => typeof fetch,
  inForce: () => BoundVendor,
  keepalives: ReturnType<typeof createKeepaliveLog>,
): {
  fetch: typeof fetch;
  numbered: (inner: typeof fetch) => typeof fetch;
  requestNo: (init: RequestInit | undefined) => number;
} {
  const requestNos = new WeakMap<RequestInit, number>();
  let requestsSent = 0;
  const fetch = tapKeepalives({
    fetch: (input, init) => transports(inForce().vendor)(input, init),
    onRequest: (init) => {
      const requestNo = init ? requestNos.get(init) : undefined;
      return ({ style, phase }) => {
        if (requestNo !== undefined) keepalives({ requestNo, style, phase });
      };
    },
  });
  const numbered = (inner: typeof globalThis.fetch): typeof globalThis.fetch =>
    ((input: RequestInfo | URL, init?: RequestInit) => {
      requestsSent += 1;
      if (init) requestNos.set(init, requestsSent);
      return inner(input, init);
    }) as typeof globalThis.fetch;
  // A request the wrapper made itself (none today) counts as the latest.
  const requestNo = (init: RequestInit | undefined): number =>
    (init ? requestNos.get(init) : undefined) ?? requestsSent;
  return { fetch, numbered, requestNo };
}
