import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { checkResultCache, CheckResultCache } from './check-result-cache';
import type { SandboxChild } from './check-launcher';
import type { SlotShare } from './fair-slots';
import { sandboxLaunch, sharedRunnerPool, spawnRunner } from './runner-pool';
import { DEFAULT_SANDBOX_LIMITS, MAX_REPORT_BYTES, MAX_STDERR_CHARS, type SandboxLimits } from './sandbox-limits';

const RSS_POLL_MS = 20;
const PAGE_BYTES = 4096;

const reportSchema = z.strictObject({
  nonce: z.string(),
  /** Each test run, with the file that registered it ('' for the global test()). */
  results: z.array(z.strictObject({ name: z.string().max(400), file: z.string().max(400), ok: z.boolean(), error: z.string().max(2_000).optional() })).max(500),
  loadErrors: z.array(z.string().max(2_500)).max(100),
  logs: z.array(z.string().max(400)).max(50),
  timedOut: z.boolean(),
});

export type SandboxReport = Omit<z.infer<typeof reportSchema>, 'nonce'>;

/** How a sandboxed check ended: with the runner's report, or stopped from outside. */
export type SandboxOutcome =
  | { kind: 'report'; report: SandboxReport }
  | { kind: 'time_limit'; limitMs: number }
  | { kind: 'memory_limit'; limitMb: number }
  | { kind: 'too_large'; bytes: number; limitBytes: number }
  | { kind: 'crashed'; detail: string }
  | { kind: 'aborted' };

/** Resident set size of a child in bytes, from /proc (Linux); undefined where there is none. */
function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a workspace's JavaScript tests in a child process and reads the runner's report from
 * its own channel (fd 3), checked against the per-check nonce and a strict schema. The parent
 * enforces the wall-clock limit (SIGKILL after `timeMs + graceMs`) and the resident-memory
 * limit; the child enforces the heap cap and the per-test vm timeout. Never rejects.
 *
 * These limits use wall-time timers, not the run's Clock, on purpose: they bound a real
 * process, and on the virtual clock run time stands still (held) while the check runs.
 */
export async function runSandboxed(options: {
  files: Record<string, string>;
  entries: string[];
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  /** The run this check is for: the pool shares its slots fairly among runs. */
  share?: SlotShare;
}): Promise<SandboxOutcome> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  // In a sweep worker, a check already run on byte-identical input answers from its report.
  // A kept report is for these very files, entries and limits, so this input passed the size
  // check when it ran (the nonce is always 36 characters): the request need not be built again.
  const cache = checkResultCache();
  const key = cache ? CheckResultCache.key({ files: options.files, entries: options.entries, limits }) : undefined;
  const cached = key === undefined ? undefined : cache!.get(key);
  if (cached) return options.signal?.aborted ? { kind: 'aborted' } : cached;

  const nonce = randomUUID();
  const request = JSON.stringify({ nonce, files: options.files, entries: options.entries, timeoutMs: limits.timeMs });
  const bytes = Buffer.byteLength(request);
  if (bytes > limits.inputBytes) return { kind: 'too_large', bytes, limitBytes: limits.inputBytes };
  if (options.signal?.aborted) return { kind: 'aborted' };

  const pooled = limits.heapMb === DEFAULT_SANDBOX_LIMITS.heapMb;
  const lease = pooled
    ? await sharedRunnerPool().acquire(options.share, options.signal)
    : { child: spawnRunner({ heapMb: limits.heapMb, launch: await sandboxLaunch() }), release: () => undefined };
  // Aborted while it waited for a slot: it never started.
  if (!lease) return { kind: 'aborted' };
  try {
    const outcome = await superviseChild({ child: lease.child, request, nonce, limits, ...(options.signal ? { signal: options.signal } : {}) });
    if (key !== undefined) cache!.set(key, outcome);
    return outcome;
  } finally {
    lease.release();
  }
}

function superviseChild(options: {
  child: SandboxChild;
  request: string;
  nonce: string;
  limits: SandboxLimits;
  signal?: AbortSignal;
}): Promise<SandboxOutcome> {
  const { child, request, nonce, limits, signal } = options;
  return new Promise<SandboxOutcome>((resolve) => {
    const chunks: Buffer[] = [];
    let reportBytes = 0;
    let stderr = '';
    let stoppedFor: SandboxOutcome | undefined;

    const stop = (why: SandboxOutcome): void => {
      stoppedFor ??= why;
      child.kill('SIGKILL');
    };
    const timeLimit = (): NodeJS.Timeout => setTimeout(() => stop({ kind: 'time_limit', limitMs: limits.timeMs }), limits.timeMs + limits.graceMs);
    let killTimer = timeLimit();
    // A child the launcher starts exists only once it says so: the limit counts from then (so at
    // most twice the limit from here, should the launcher itself be slow to answer).
    if (child.pid === undefined)
      child.once('spawn', () => {
        clearTimeout(killTimer);
        if (!settled) killTimer = timeLimit();
      });
    const rssTimer = setInterval(() => {
      const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
      if (rss !== undefined && rss > limits.rssMb * 1_048_576) stop({ kind: 'memory_limit', limitMb: limits.rssMb });
    }, RSS_POLL_MS);
    const onAbort = (): void => stop({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });

    const report = child.stdio[3] as NodeJS.ReadableStream | null;
    report?.on('data', (chunk: Buffer) => {
      reportBytes += chunk.length;
      if (reportBytes > MAX_REPORT_BYTES) stop({ kind: 'crashed', detail: 'the test runner sent an oversized report' });
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
      clearInterval(rssTimer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.on('error', (error) => {
      // A child that never started emits no 'close' of its own on every platform: answer now.
      if (child.pid === undefined) settle({ kind: 'crashed', detail: `could not start the test runner: ${error.message}` });
      else stop({ kind: 'crashed', detail: `the test runner failed: ${error.message}` });
    });

    child.on('close', (code, exitSignal) => {
      if (stoppedFor) return settle(stoppedFor);
      if (/heap limit|out of memory/i.test(stderr)) return settle({ kind: 'memory_limit', limitMb: limits.heapMb });
      const parsed = parseReport(Buffer.concat(chunks).toString('utf8'), nonce);
      if (parsed && code === 0) return settle({ kind: 'report', report: parsed });
      const how = exitSignal ? `was killed by ${exitSignal}` : `exited with code ${code}`;
      settle({ kind: 'crashed', detail: `the test runner ${how} without a report` });
    });

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
