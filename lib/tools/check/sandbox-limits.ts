/** The limits a check's child process runs under; see docs/sandbox.md. */
export interface SandboxLimits {
  /**
   * CPU time the child may use, its start included (Node's own start takes about 0.1 s of it):
   * the parent reads it from /proc and interrupts the tests past it, the child checks its own
   * between runner calls. A busy machine gives the child less of each second, not less CPU, so
   * the same tests end the same way at any load. Where there is no /proc, wall time.
   */
  timeMs: number;
  /** Extra CPU time (wall time where there is no /proc) for the child to report past `timeMs` before the parent sends SIGKILL. */
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

/**
 * The wall-clock backstop, as a multiple of the most CPU time a child may use
 * (`timeMs + graceMs`): a child that has neither reported nor used its CPU time after this much
 * wall time was starved by the machine, not stopped by its limit (35 s by default). Ten times:
 * a check at nice 10 beside three busy processes on its core gets about 3.5 % of it, so a check
 * that uses its whole 2 s of CPU needs about 57 s there and is backstopped, while a normal check
 * (0.1–0.3 s of CPU) finishes in under 10 s.
 */
export const WALL_BACKSTOP_FACTOR = 10;

/**
 * How many more times a check stopped only by the wall-clock backstop is run (each in a fresh
 * child) before the check gives up and says the machine is overloaded: its answer is then
 * unknown, never a timeout the machine's speed decided.
 */
export const BACKSTOP_RETRIES = 2;

/**
 * Most tests one check may register. The runner keeps this many and counts every registration
 * beyond it without storing it; a check that registers more fails and says so, so code under
 * test cannot push the real tests out of a check by registering its own first.
 */
export const MAX_TESTS = 500;

/** The most a check's report may be (bytes): a larger one is a crash, never parsed. */
export const MAX_REPORT_BYTES = 2_000_000;
/** What is kept of a check's stderr (only to tell a heap-limit abort from a crash). */
export const MAX_STDERR_CHARS = 4_000;
