/** The limits a check's child process runs under; see docs/ARCHITECTURE.md ("The check sandbox"). */
export interface SandboxLimits {
  /** Wall-clock limit on the tests, enforced inside the child (vm timeout) and from outside. */
  timeMs: number;
  /** Extra wall time for the child to start and report before the parent sends SIGKILL. */
  graceMs: number;
  /** V8 old-space cap (`--max-old-space-size`): a runaway allocation dies in the child. */
  heapMb: number;
  /** Resident memory the parent allows (polled from /proc on Linux), buffers included. */
  rssMb: number;
  /** Bytes of workspace source sent to the child. */
  inputBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeMs: 2_000,
  graceMs: 1_500,
  heapMb: 64,
  rssMb: 256,
  inputBytes: 8_000_000,
};

/** The most a check's report may be (bytes): a larger one is a crash, never parsed. */
export const MAX_REPORT_BYTES = 2_000_000;
/** What is kept of a check's stderr (only to tell a heap-limit abort from a crash). */
export const MAX_STDERR_CHARS = 4_000;
