import { createHash } from 'node:crypto';
import type { SandboxLimits } from './sandbox-limits';
import type { SandboxOutcome } from './run-sandboxed';

/**
 * Check results by the exact input they ran on, for sweeps. A sweep runs the same scenario
 * hundreds of times, and most runs end (and call run_check) on byte-identical workspaces; each
 * check costs a child process (tens of ms of CPU to boot Node, more of wall time), which
 * dominated a sweep run. Identical input gives the same report, so it is run once and its
 * report reused.
 *
 * What is kept: only a full report whose tests all ran within the time limit. A check the
 * sandbox stopped (time, memory, crash, abort, too large) is never kept, so every such check
 * runs, and is stopped, in its own child again (a check the machine starved of CPU too). The guarantees of the sandbox are untouched:
 * every check that runs, runs in a fresh child under the same limits; this only decides
 * whether to run one. A test whose outcome depends on Math.random or the time of day gets one
 * draw per identical workspace in a thread that enables this: that is why only sweep
 * worker threads turn it on (lib/sweeps/sweep-worker-entry.ts), and the benches that measure
 * what a sweep worker does, never a thread that runs the playground's runs.
 */
export class CheckResultCache {
  private readonly entries = new Map<string, SandboxOutcome & { kind: 'report' }>();
  hits = 0;
  misses = 0;

  constructor(private readonly maxEntries: number) {}

  /** The key of a check: every file's path and text, the entries run, and the limits. */
  static key(input: {
    files: Record<string, string>;
    entries: readonly string[];
    limits: SandboxLimits;
  }): string {
    const hash = createHash('sha256');
    const write = (part: string): void => void hash.update(`${part.length}:${part}`);
    for (const path of Object.keys(input.files).sort()) {
      write(path);
      write(input.files[path]!);
    }
    write(JSON.stringify(input.entries));
    write(JSON.stringify(input.limits));
    return hash.digest('hex');
  }

  get(key: string): SandboxOutcome | undefined {
    const hit = this.entries.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    // Least recently used goes first: re-insert on use.
    this.entries.delete(key);
    this.entries.set(key, hit);
    this.hits++;
    return hit;
  }

  /** Keeps an outcome if it is a full report; anything the sandbox stopped is not kept. */
  set(key: string, outcome: SandboxOutcome): void {
    if (outcome.kind !== 'report' || outcome.report.timedOut) return;
    this.entries.delete(key);
    this.entries.set(key, outcome);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

let shared: CheckResultCache | undefined;

/** Turns on reuse of check results in this thread (sweep workers only; see above). */
export function enableCheckResultCache(maxEntries = 1_000): CheckResultCache {
  shared ??= new CheckResultCache(maxEntries);
  return shared;
}

/** This thread's cache, if enabled. */
export function checkResultCache(): CheckResultCache | undefined {
  return shared;
}
