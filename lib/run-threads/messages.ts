import type {
  Cassette,
  CassetteExchange,
  RunConfig,
  RunEvent,
  RunTotals,
  WireExchange,
} from '@/lib/protocol';
import type { ForkStart } from '@/lib/runtime/plan-fork';
import type { ControlMessage } from '@/lib/runtime/types';

/**
 * How a run thread (run-thread-entry.ts) paces a burst of starts. A hundred runs POSTed at once
 * reach a thread as a stream of starts while the main thread is still answering the POSTs, and on
 * a machine with few cores a thread starting runs takes a core from the main thread that answers
 * them (each start is the run's first request: rendering, the SDK, the simulated vendor). So a start that comes less than
 * START_SETTLE_MS after the one before waits until starts have stopped coming for that long — the
 * POSTs answered — or until it has waited START_HOLD_MAX_MS; the first start after a quiet spell
 * (one click on Run) goes at once. Only when a run starts moves: its clock starts when it does,
 * so nothing it records depends on the wait.
 */
export const START_SETTLE_MS = 50;
export const START_HOLD_MAX_MS = 2_000;

/** What the server's main thread sends a run thread. */
export type ToRunThread =
  /** `record`: send the run's exchanges back (LaunchOptions.onExchange); `cassette`: the recording a replay is served from. */
  | {
      type: 'start';
      runId: string;
      config: RunConfig;
      apiKey?: string;
      fork?: ForkStart;
      record?: boolean;
      /** Send the run's wire back (LaunchOptions.onWire). */
      wire?: boolean;
      cassette?: Cassette;
    }
  | { type: 'control'; runId: string; message: ControlMessage };

/** What a run thread sends back. */
export type FromRunThread =
  /**
   * The events its runs emitted since the last message, each run's in seq order; `late`: how
   * late each stream watchdog that fired meanwhile was, wall ms, when the bench asked (lib/clock/bench-probe.ts).
   */
  | {
      type: 'events';
      /** Each run's events, with the run's totals after each as its run log folded them. */
      runs: Array<[runId: string, [events: RunEvent[], totals: Readonly<RunTotals>[]]]>;
      late?: number[];
      /** Each of those firings' deadline, epoch ms. */
      due?: number[];
      /** When the bench asked: how late a bare 20 ms timer on this thread fired meanwhile, wall ms. */
      timerLate?: number[];
      exchanges?: Array<[runId: string, exchanges: CassetteExchange[]]>;
      wire?: Array<[runId: string, wire: WireExchange[]]>;
      /** Each start held back in a burst (START_SETTLE_MS) since the last message, and how long it waited. */
      held?: Array<[runId: string, wallMs: number]>;
    }
  /** The run's handle is done: every event it emitted has been sent before this. */
  | { type: 'done'; runId: string };
