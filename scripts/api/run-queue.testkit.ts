import pg from 'pg';
import { canonical, type Received } from './run-stream.testkit';

/**
 * What the run-queue process tests (scripts/api/run-queue.test.ts, e2e/multi-instance.spec.ts)
 * share: the paced run they start (and the rate-limited run it is one of, which the other process
 * tests start too), the checks on a stream a client read against the stored log, the log's
 * uninterrupted form, and which process holds each running run.
 */

/** What a rate-limited run varies: its clock, and how long each 429 asks it to wait. */
export interface LimitedRun {
  seed: number;
  clock: 'paced' | 'real';
  timeScale: number;
  retryAfterSec: number;
  /** The requests answered 429 (the first and third unless given). */
  requests?: number[];
  /** The simulated Anthropic vendor unless given. */
  provider?: Record<string, unknown>;
}

/** A run of the codesmith preset whose listed requests are answered 429, each waited out. */
export function limitedConfig(run: LimitedRun): Record<string, unknown> {
  return {
    provider: run.provider ?? { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: run.seed,
    clock: run.clock,
    timeScale: run.timeScale,
    faults: {
      rules: [
        {
          id: 'limited',
          when: { kind: 'requests', numbers: run.requests ?? [1, 3] },
          action: { type: 'http_error', status: 429, retryAfterSec: run.retryAfterSec },
        },
      ],
      tools: [],
    },
  };
}

/** A paced run: about 40 s of run time (two rate limits of 15 s waited out), 8 s of wall time at 0.2. */
export const pacedConfig = (seed: number): Record<string, unknown> =>
  limitedConfig({ seed, clock: 'paced', timeScale: 0.2, retryAfterSec: 15 });

interface Event {
  seq: number;
  event: string;
  run_id?: string;
  reason?: string;
}

/** A stored line's event. */
export const eventOf = (line: { json: string }): Event => JSON.parse(line.json) as Event;

/**
 * What is wrong with a run's stream as a client read it, against the log the store holds: each
 * problem said in words, none when the client saw every event once, dense from seq 0, exactly as
 * stored, ending with the run's own terminate (not a restart's cut-off).
 */
export function streamProblems(
  runId: string,
  received: readonly Received[],
  stored: readonly { json: string }[],
): string[] {
  const problems: string[] = [];
  if (received.at(-1)?.event !== 'terminate')
    problems.push(`run ${runId}: the stream ends with ${received.at(-1)?.event ?? 'nothing'}, not terminate`);
  const gap = received.findIndex((e, i) => e.seq !== i);
  if (gap >= 0) problems.push(`run ${runId}: the stream's event ${gap} has seq ${received[gap]!.seq}`);
  const sent = received.map((e) => canonical(e.json));
  const kept = stored.map((e) => canonical(e.json));
  if (sent.length !== kept.length)
    problems.push(`run ${runId}: the stream sent ${sent.length} events, the store holds ${kept.length}`);
  const differs = kept.findIndex((json, i) => json !== sent[i]);
  if (differs >= 0) problems.push(`run ${runId}: event ${differs} as sent differs from the stored one`);
  if (stored.length > 0 && eventOf(stored.at(-1)!).reason === 'server_restart')
    problems.push(`run ${runId}: ends cut off by a restart, not as the run does`);
  return problems;
}

/** Whether a stored log says the run was resumed after the process running it was lost. */
export const wasResumed = (log: readonly { json: string }[]): boolean =>
  log.some((line) => eventOf(line).event === 'resumed_after_restart');

/** A log as one uninterrupted run has it: no resume marker, seqs renumbered, no run id. */
export function uninterruptedForm(log: readonly { json: string }[]): string[] {
  return log
    .map(eventOf)
    .filter((e) => e.event !== 'resumed_after_restart')
    .map((e, seq) => JSON.stringify({ ...e, run_id: undefined, seq }));
}

/** A running run and the process holding it (`owner` is `<host>:<pid>:…`, or null while queued). */
export type Holder = { id: string; owner: string | null };

/** How many of the runs `ids` each process (its pid) holds, from the store's running runs. */
export function holdersByPid(rows: readonly Holder[], ids: readonly string[]): Map<number, number> {
  const count = new Map<number, number>();
  for (const { id, owner } of rows) {
    if (!ids.includes(id) || !owner) continue;
    const pid = Number(owner.split(':')[1]);
    count.set(pid, (count.get(pid) ?? 0) + 1);
  }
  return count;
}

/** The running runs of the Postgres store at `url`, with their holders. */
export async function postgresRunning(url: string): Promise<Holder[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Holder>(`SELECT id, owner FROM runs WHERE status = 'running'`)).rows;
  } finally {
    await client.end();
  }
}
