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
    }
  /** The run's handle is done: every event it emitted has been sent before this. */
  | { type: 'done'; runId: string };
