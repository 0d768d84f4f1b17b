import type { MechanismModule } from '@/lib/engine/mechanism-port';
import type { Clock } from '@/lib/clock';
import type { EngineProbe } from '@/lib/engine/engine-deps';
import type {
  Cassette,
  CassetteExchange,
  WireExchange,
  FaultPlan,
  PauseControl,
  RunConfig,
  RunEvent,
  RunTotals,
  Vendor,
} from '@/lib/protocol';
import type { VendorTarget } from './bind-vendor';
import type { ForkStart } from './plan-fork';

/** Control messages, applied by the engine at the next request boundary (abort: at once). */
export type ControlMessage =
  | { action: 'abort'; reason?: 'aborted' | 'abandoned' }
  | { action: 'set_faults'; faults: FaultPlan }
  | { action: 'compact' }
  /** Continue on another vendor and model from the next request (a key, if any, for this run only). */
  | { action: 'swap'; target: VendorTarget }
  /** Breakpoints, step / continue / cancel, and tool approval: the pause gate's (pause-gate.ts), at once. */
  | PauseControl;

export interface LaunchOptions {
  runId: string;
  /** A parsed, valid config (RunConfigSchema.parse). */
  config: RunConfig;
  /** The strategy `config.strategy` names, loaded by the CLI or a sweep job (lib/runtime/load-strategy.ts). */
  strategy?: MechanismModule<never>;
  /** A key for this run only; held in memory, never stored or emitted. */
  apiKey?: string;
  /** Start from a stored run's trajectory up to a turn (lib/runtime/plan-fork.ts). */
  fork?: ForkStart;
  /**
   * Called with every event, in seq order, synchronously as it is appended: final as given
   * (numbered, storable, redacted by the run log, lib/runtime/run-log.ts), the last a terminate;
   * with the run's totals after it, folded there once (the store writes the runs row from them).
   */
  onEvent: (event: RunEvent, totals: Readonly<RunTotals>) => void;
  /** Sees each request body as it reaches the vendor, beneath the fault wrapper (tests, recordings). */
  onVendorRequest?: (request: { vendor: Vendor; body: string }) => void;
  /**
   * Wraps the fetch the SDK calls (faults included), to see the exact bytes it parses: the
   * sweep bench records a run's exchanges with it to time the bare SDK on the same bytes.
   */
  tapFetch?: (
    fetch: typeof globalThis.fetch,
    /**
     * The run's clock: real work the tap waits on before it calls `fetch` (a store read) goes
     * through `hold`, so that on the virtual and paced clocks run time stands still meanwhile, as
     * for any real work the run waits on; otherwise a slow read lets the clock jump to the next
     * deadline (the watchdog's) and the log depends on the store's speed.
     */
    clock: Pick<Clock, 'hold'>,
  ) => typeof globalThis.fetch;
  /** The recording a run with `config.replay` is served from (the caller loads it: a file, a stored cassette). */
  cassette?: Cassette;
  /**
   * Records the run's traffic for a cassette: called with each exchange beneath the fault wrapper
   * once its response has ended, with every key the run knows removed (lib/cassettes).
   */
  onExchange?: (exchange: CassetteExchange) => void;
  /**
   * Records the run's wire for the attempt cards: called with each request just beneath the SDK
   * (above the fault wrapper: what the SDK sent and received) once its response has ended, with
   * every key removed (lib/cassettes/record-exchanges.ts, recordWire).
   */
  onWire?: (exchange: WireExchange) => void;
  /**
   * Wraps a real vendor's network fetch, beneath the fault wrapper and the recorder (a sweep's
   * per-endpoint limiter: lib/sweeps/gated-fetch.ts). It waits on the run's clock and writes why
   * in the run's log (`note`, an info log event).
   */
  gateNetwork?: (
    fetch: typeof globalThis.fetch,
    run: { clock: Clock; note: (message: string) => void },
  ) => typeof globalThis.fetch;
  /**
   * A run taken up again after a server restart (lib/server/resume-runs.ts): its first `replayed`
   * events re-execute the stored log (the caller checks each against it), then the log writes
   * `resumed_after_restart` and the run goes on. On the paced clock the re-execution is unpaced.
   */
  restart?: { replayed: number };
  /** A benchmark's probe, handed to the engine (EngineDeps.probe): the load bench's server passes one in. */
  probe?: EngineProbe | undefined;
}

export interface RunHandle {
  readonly runId: string;
  control(message: ControlMessage): void;
  /** Resolves after the terminate event has been emitted. Never rejects. */
  readonly done: Promise<void>;
  /** The run's redaction in force (every key it has learned), for text that leaves it outside its events. */
  redactText(text: string): string;
}

/**
 * The composition root's entry point (lib/runtime/launch-run.ts):
 *   launchRun(options: LaunchOptions): RunHandle
 * It builds the clock, the transport (simulated vendor or global fetch) under the fault
 * wrapper, the provider adapter, the workspace and tools, then runs the engine loop.
 */
