import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { z } from 'zod';
import { checkResultCache, CheckResultCache } from './check-result-cache';
import type { SandboxChild } from './check-launcher';
import type { SlotShare } from './fair-slots';
import { sandboxLaunch, sharedRunnerPool, spawnRunner } from './runner-pool';
import {
  BACKSTOP_RETRIES,
  DEFAULT_SANDBOX_LIMITS,
  MAX_REPORT_BYTES,
  MAX_STDERR_CHARS,
  MAX_TESTS,
  WALL_BACKSTOP_FACTOR,
  type SandboxLimits,
} from './sandbox-limits';

/** How often the parent reads a child's CPU time and resident memory from /proc. */
const POLL_MS = 20;
const PAGE_BYTES = 4096;
/** The unit of utime and stime in /proc/<pid>/stat: USER_HZ, 100 a second on Linux. */
const TICKS_PER_SECOND = 100;

const reportSchema = z.strictObject({
  nonce: z.string(),
  /** Tests registered, those past the cap (which the runner counts but does not keep) included. */
  registered: z.number().int().min(0),
  /** Each test run, with the file that registered it ('' for the global test()). */
  results: z
    .array(
      z.strictObject({
        name: z.string().max(400),
        file: z.string().max(400),
        ok: z.boolean(),
        error: z.string().max(2_000).optional(),
      }),
    )
    .max(MAX_TESTS),
  loadErrors: z.array(z.string().max(2_500)).max(100),
  logs: z.array(z.string().max(400)).max(50),
  timedOut: z.boolean(),
});

export type SandboxReport = Omit<z.infer<typeof reportSchema>, 'nonce'>;

/** What a check's time limit is counted in: the child's CPU time (read from /proc), or wall time where there is no /proc. */
export type CheckClock = 'cpu' | 'wall';

/** How a sandboxed check ended: with the runner's report, or stopped from outside. */
export type SandboxOutcome =
  | { kind: 'report'; report: SandboxReport }
  | { kind: 'time_limit'; limitMs: number; clock: CheckClock }
  /** Only the wall-clock backstop stopped it, on every try: the machine did not give it the CPU to finish. */
  | { kind: 'wall_backstop'; backstopMs: number; tries: number }
  | { kind: 'memory_limit'; limitMb: number }
  | { kind: 'too_large'; bytes: number; limitBytes: number }
  | { kind: 'crashed'; detail: string }
  | { kind: 'aborted' };

/** utime (field 14) and stime (field 15) of /proc/<pid>/stat, counted from field 3. */
const UTIME_AT = 11;
const STIME_AT = 12;

/** User + system ticks in a /proc/<pid>/stat line, as ms; the command name (field 2, in parentheses) may hold spaces. */
function statCpuMs(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[UTIME_AT]) + Number(fields[STIME_AT]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/** Resident pages (the second field) in a /proc/<pid>/statm line, as bytes. */
function statmResidentBytes(statm: string): number | undefined {
  const pages = Number(statm.split(' ')[1]);
  return Number.isFinite(pages) ? pages * PAGE_BYTES : undefined;
}

/**
 * CPU time a process has used, all its threads, user and system, since it started (ms), from
 * /proc/<pid>/stat (Linux): the figure getrusage gives the process itself, in ticks.
 */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * One /proc file of a child, opened once and read again from its start at each poll: one read
 * a poll, where reading it by path was an open, a stat, two reads and a close. A run thread
 * polls every check it runs every POLL_MS, beside the runs' deadlines. Undefined where there is
 * no /proc, or once the process is gone (its open file then answers with an error, never with
 * another process's figures).
 */
class ProcFile {
  private fd: number | undefined;
  private readonly buffer = Buffer.allocUnsafe(4096);

  constructor(private readonly path: string) {}

  read(): string | undefined {
    try {
      this.fd ??= openSync(this.path, 'r');
      return this.buffer.toString('latin1', 0, readSync(this.fd, this.buffer, 0, this.buffer.length, 0));
    } catch {
      // No /proc here, or the process has exited: the next poll tries again by path, as a read by path would.
      this.close();
      return undefined;
    }
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // Nothing is held either way.
    }
  }
}

let clockOfChecks: CheckClock | undefined;

/** CPU time where this machine has /proc to read it from (Linux), else wall time: decided once. */
export function checkClock(): CheckClock {
  clockOfChecks ??= cpuTimeMs(process.pid) === undefined ? 'wall' : 'cpu';
  return clockOfChecks;
}

/** The wall-clock backstop of a check under `limits` (ms): WALL_BACKSTOP_FACTOR times the most CPU time it may use. */
export function backstopMs(
  limits: Pick<SandboxLimits, 'timeMs' | 'graceMs'> & { backstopMs?: number },
): number {
  return limits.backstopMs ?? WALL_BACKSTOP_FACTOR * (limits.timeMs + limits.graceMs);
}

/**
 * Runs a workspace's JavaScript tests in a child process and reads the runner's report from
 * its own channel (fd 3), checked against the per-check nonce and a strict schema. Never rejects.
 *
 * The time limit is the child's CPU time (`timeMs`, its start included), so how busy the machine
 * is does not decide where a check ends: the parent reads it from /proc, interrupts the tests
 * with SIGINT past it (the child then reports the tests that finished) and sends SIGKILL past
 * `timeMs + graceMs`; the child checks its own between runner calls. The parent also enforces
 * the resident-memory limit; the child the heap cap. A wall-clock backstop many times larger
 * (`backstopMs`) ends a child the machine starved of CPU: such a check is run again, up to
 * BACKSTOP_RETRIES more times, and if it is still starved the outcome says so (`wall_backstop`)
 * instead of passing off a timeout the machine's speed decided. Where there is no /proc, the
 * limit is wall time (SIGKILL after `timeMs + graceMs`) and there is no backstop.
 *
 * These use wall-time timers, not the run's Clock, on purpose: they watch a real process, and
 * on the virtual clock run time stands still (held) while the check runs.
 */
export async function runSandboxed(options: {
  files: Record<string, string>;
  entries: string[];
  limits?: Partial<SandboxLimits> & {
    /** The wall-clock backstop (ms); by default WALL_BACKSTOP_FACTOR × (timeMs + graceMs). For tests. */
    backstopMs?: number;
  };
  signal?: AbortSignal;
  /** The run this check is for: the pool shares its slots fairly among runs. */
  share?: SlotShare;
  /** Called with each child's pid when its request is sent (tests stop the child to starve it). */
  onChild?: (pid: number) => void;
}): Promise<SandboxOutcome> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  // In a sweep worker, a check already run on byte-identical input answers from its report.
  // A kept report is for these very files, entries and limits, so this input passed the size
  // check when it ran (the nonce is always 36 characters): the request need not be built again.
  const cache = checkResultCache();
  const key = cache
    ? CheckResultCache.key({ files: options.files, entries: options.entries, limits })
    : undefined;
  const cached = key === undefined ? undefined : cache!.get(key);
  if (cached) return options.signal?.aborted ? { kind: 'aborted' } : cached;

  const nonce = randomUUID();
  const clock = checkClock();
  const request = JSON.stringify({
    nonce,
    files: options.files,
    entries: options.entries,
    timeoutMs: limits.timeMs,
    clock,
  });
  const bytes = Buffer.byteLength(request);
  if (bytes > limits.inputBytes) return { kind: 'too_large', bytes, limitBytes: limits.inputBytes };

  const pooled = limits.heapMb === DEFAULT_SANDBOX_LIMITS.heapMb;
  for (let tries = 1; ; tries++) {
    if (options.signal?.aborted) return { kind: 'aborted' };
    const lease = pooled
      ? await sharedRunnerPool().acquire(options.share, options.signal)
      : {
          child: spawnRunner({ heapMb: limits.heapMb, launch: await sandboxLaunch() }),
          release: () => undefined,
        };
    // Aborted while it waited for a slot: it never started.
    if (!lease) return { kind: 'aborted' };
    let outcome: SandboxOutcome;
    try {
      outcome = await superviseChild({
        child: lease.child,
        request,
        nonce,
        limits,
        clock,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onChild ? { onChild: options.onChild } : {}),
      });
    } finally {
      lease.release();
    }
    // Starved, not stopped by its limit: its answer is unknown, so it runs again in a fresh child.
    if (outcome.kind === 'wall_backstop' && tries <= BACKSTOP_RETRIES) continue;
    if (outcome.kind === 'wall_backstop') return { ...outcome, tries };
    if (key !== undefined) cache!.set(key, outcome);
    return outcome;
  }
}

function superviseChild(options: {
  child: SandboxChild;
  request: string;
  nonce: string;
  limits: SandboxLimits & { backstopMs?: number };
  clock: CheckClock;
  signal?: AbortSignal;
  onChild?: (pid: number) => void;
}): Promise<SandboxOutcome> {
  const { child, request, nonce, limits, clock, signal, onChild } = options;
  return new Promise<SandboxOutcome>((resolve) => {
    const chunks: Buffer[] = [];
    let reportBytes = 0;
    let stderr = '';
    let stoppedFor: SandboxOutcome | undefined;
    let interrupted = false;

    const stop = (why: SandboxOutcome): void => {
      stoppedFor ??= why;
      child.kill('SIGKILL');
    };
    // On the CPU clock the wall timer is only the backstop; without /proc it is the limit.
    const wallTimer = (): NodeJS.Timeout =>
      clock === 'cpu'
        ? setTimeout(
            () => stop({ kind: 'wall_backstop', backstopMs: backstopMs(limits), tries: 1 }),
            backstopMs(limits),
          )
        : setTimeout(
            () => stop({ kind: 'time_limit', limitMs: limits.timeMs, clock }),
            limits.timeMs + limits.graceMs,
          );
    let killTimer = wallTimer();
    // A child the launcher starts exists only once it says so: the wall timer counts from then (so
    // at most twice its time from here, should the launcher itself be slow to answer).
    if (child.pid === undefined)
      child.once('spawn', () => {
        clearTimeout(killTimer);
        if (settled) return;
        killTimer = wallTimer();
        if (child.pid !== undefined) onChild?.(child.pid);
      });
    let proc: { statm: ProcFile; stat: ProcFile } | undefined;
    const pollTimer = setInterval(() => {
      const pid = child.pid;
      if (pid === undefined) return;
      proc ??= { statm: new ProcFile(`/proc/${pid}/statm`), stat: new ProcFile(`/proc/${pid}/stat`) };
      const statm = proc.statm.read();
      const rss = statm === undefined ? undefined : statmResidentBytes(statm);
      if (rss !== undefined && rss > limits.rssMb * 1_048_576)
        return stop({ kind: 'memory_limit', limitMb: limits.rssMb });
      if (clock !== 'cpu') return;
      const stat = proc.stat.read();
      const used = stat === undefined ? undefined : statCpuMs(stat);
      if (used === undefined) return;
      if (used >= limits.timeMs + limits.graceMs)
        return stop({ kind: 'time_limit', limitMs: limits.timeMs, clock });
      // Past its CPU time and not reporting yet: interrupt the runner call in progress. Sent at
      // every poll until the report comes, since one that lands between calls is swallowed.
      if (used >= limits.timeMs && reportBytes === 0) {
        interrupted = true;
        child.kill('SIGINT');
      }
    }, POLL_MS);
    const onAbort = (): void => stop({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });

    const report = child.stdio[3] as NodeJS.ReadableStream | null;
    report?.on('data', (chunk: Buffer) => {
      reportBytes += chunk.length;
      if (reportBytes > MAX_REPORT_BYTES)
        stop({ kind: 'crashed', detail: 'the test runner sent an oversized report' });
      else chunks.push(chunk);
    });
    report?.on('error', () => undefined);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    child.stdin?.on('error', () => undefined);
    let settled = false;
    const settle = (outcome: SandboxOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      clearInterval(pollTimer);
      proc?.statm.close();
      proc?.stat.close();
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.on('error', (error) => {
      // A child that never started emits no 'close' of its own on every platform: answer now.
      if (child.pid === undefined)
        settle({ kind: 'crashed', detail: `could not start the test runner: ${error.message}` });
      else stop({ kind: 'crashed', detail: `the test runner failed: ${error.message}` });
    });

    child.on('close', (code, exitSignal) => {
      if (stoppedFor) return settle(stoppedFor);
      if (/heap limit|out of memory/i.test(stderr))
        return settle({ kind: 'memory_limit', limitMb: limits.heapMb });
      const parsed = parseReport(Buffer.concat(chunks).toString('utf8'), nonce);
      if (parsed && code === 0) return settle({ kind: 'report', report: parsed });
      // An interruption that reached the child outside a runner call (before its listener was
      // set, or as a call began) ended it: stopped at its time limit, without a report.
      if (interrupted && exitSignal === 'SIGINT')
        return settle({ kind: 'time_limit', limitMs: limits.timeMs, clock });
      const how = exitSignal ? `was killed by ${exitSignal}` : `exited with code ${code}`;
      settle({ kind: 'crashed', detail: `the test runner ${how} without a report` });
    });

    if (child.pid !== undefined) onChild?.(child.pid);
    child.stdin?.end(request);
  });
}

function parseReport(text: string, nonce: string): SandboxReport | undefined {
  try {
    const parsed = reportSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.nonce !== nonce) return undefined;
    const { nonce: _nonce, ...report } = parsed.data;
    return report;
  } catch {
    return undefined;
  }
}
