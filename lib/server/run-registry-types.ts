/** The run registry's contract: what it offers its callers and what it is built from (run-registry.ts). */
import type { Cassette, RunConfig } from '@/lib/protocol';
import type { ForkStart } from '@/lib/runtime/plan-fork';
import type { ControlMessage, LaunchOptions, RunHandle } from '@/lib/runtime/types';
import type { RunStore, TakenOverRun, WireStore } from '@/lib/store';
import type { RunListener } from './run-fan-out';
import type { RunTraffic } from './run-traffic';

export interface StartRunOptions {
  config: RunConfig;
  /** For this run only: handed to launch, never stored, emitted or logged. */
  apiKey?: string;
  /** A fork of a stored run (lib/runtime/plan-fork.ts): recorded with the run, handed to launch. */
  fork?: ForkStart;
  /** The recording a run with `config.replay` is served from, loaded by the route. */
  cassette?: Cassette;
}
export interface SubscribeOptions {
  runId: string;
  /** Replay events with seq greater than this (a Last-Event-ID); omit for the whole log. */
  afterSeq?: number;
  listener: RunListener;
}
export interface ControlOptions {
  runId: string;
  message: ControlMessage;
}

export interface RunRegistry {
  startRun(options: StartRunOptions): Promise<{ id: string }>;
  /**
   * Rejects with HttpError 404 for an unknown run. Resolves once the replay is sent, to the
   * unsubscribe function.
   */
  subscribe(options: SubscribeOptions): Promise<() => void>;
  /** Rejects with HttpError 404 (unknown) or 409 (already finished). */
  control(options: ControlOptions): Promise<void>;
  /** Whether the run executes here (until its terminate event is stored). */
  isLive(runId: string): Promise<boolean>;
  /**
   * Writes a live run's unwritten events now (they wait up to FLUSH_MS otherwise), for a reader
   * that goes to the store rather than subscribing: a fork of a running run. Resolves once the
   * store holds them; at once otherwise.
   */
  writePending(runId: string): Promise<void>;
  /** Resolves once the run's terminate event is stored (at once when it is not live). */
  whenFinished(runId: string): Promise<void>;
  /**
   * Resolves once the store holds the run's first event (at once when it is not live): a reader
   * of the store (the comparison) that meets a run started a moment ago, still starting on its
   * run thread, waits for its run_start rather than finding an empty log.
   */
  whenLogged(runId: string): Promise<void>;
  /**
   * Takes up every run a previous server process left in flight (the store's claim): each that
   * can be resumed faithfully is re-executed from its config and seed, checked against its
   * stored log and goes on live here (lib/server/resume-runs.ts): `resumed`, though a
   * re-execution that leaves the stored log still ends it with the reason; a log that holds what
   * its config cannot give again (a control message) is closed at once with the reason:
   * `closed`. Runs whose config rules resumption out were closed when the store opened. Called
   * once, when the server starts; the registry's other methods wait for it.
   */
  resumeInterrupted(): Promise<{ resumed: string[]; closed: string[] }>;
}

/** The registry that executes runs in this process, with what a queue worker needs of it (lib/server/run-jobs.ts). */
export interface LocalRunRegistry extends RunRegistry {
  /**
   * Executes a run the store holds that this store opening has just taken over (RunStore.takeOverRun):
   * one with no events yet starts from its config (`fork`, `cassette`: as its POST gave them);
   * one with a log is resumed as after a restart, or closed with the reason when it cannot be.
   */
  executeTakenOver(
    run: TakenOverRun,
    start: { fork?: ForkStart; cassette?: Cassette },
  ): Promise<'started' | 'resumed' | 'closed' | 'lost'>;
  /**
   * Resolves once the run has left this process: 'ended' when its terminate is stored, 'lost' when
   * another process took it over meanwhile and it stopped here, writing nothing more.
   */
  whenReleased(runId: string): Promise<'ended' | 'lost'>;
}

export interface RunRegistryOptions {
  store: RunStore;
  launch: (options: LaunchOptions) => RunHandle;
  /** A run nobody has watched for this long is aborted as abandoned. */
  unwatchedMs?: number;
  /** Where each run's model traffic is kept for "Save as cassette" (lib/server/run-traffic.ts); absent: not kept. */
  traffic?: RunTraffic;
  /**
   * Readies this process for a run's config before it is launched or resumed here (an uploaded
   * task's files copied from the store: lib/server/uploaded-task-files.ts). It never throws: what
   * it could not ready, the run's launch reports in the run's log.
   */
  prepare?: (config: RunConfig) => Promise<void>;
  /** Where each run's wire is kept for its attempt cards (lib/store/wire-store.ts); absent: not kept. */
  wire?: WireStore;
  /** Told of each request a run sends to its vendor (a worker's `--log-requests`). */
  onVendorRequest?: (runId: string) => void;
}
