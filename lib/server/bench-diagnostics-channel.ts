import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { readBenchDiagnostics, resetBenchDiagnostics, type BenchDiagnostics } from './bench-diagnostics';

/**
 * The bench diagnostics of queue workers (`npm run worker`), which serve no HTTP: a worker started
 * with LOOP_LAB_BENCH_DIAGNOSTICS=1 listens on a Redis channel of its own, apart from the runs'
 * channels, and answers each request on a reply list the asker named. Nothing here touches a run,
 * its events or its store; a worker without the variable never subscribes.
 */
export const BENCH_DIAGNOSTICS_CHANNEL = 'loop-lab:bench-diagnostics';

/** A request: start the figures again, or read them; the answer goes on the list `reply`. */
interface Request {
  op: 'reset' | 'read';
  reply: string;
}

/** One worker's answer: its pid, and its figures when they were read. */
export interface WorkerDiagnostics {
  pid: number;
  diagnostics?: BenchDiagnostics;
}

/** How long an unread reply list is kept, s: an asker that gave up leaves nothing behind for long. */
const REPLY_TTL_S = 60;

/** In a worker: answers the bench's requests until the returned stop is called. */
export async function answerBenchDiagnostics({
  redisUrl,
}: {
  redisUrl: string;
}): Promise<() => Promise<void>> {
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const commands = new Redis(redisUrl, { maxRetriesPerRequest: null });
  for (const connection of [subscriber, commands])
    connection.on('error', (error: Error) =>
      console.error(`[loop-lab] bench diagnostics: redis: ${error.message}`),
    );
  subscriber.on('message', (_channel: string, text: string) => {
    void (async () => {
      const request = JSON.parse(text) as Request;
      if (request.op === 'reset') resetBenchDiagnostics();
      const answer: WorkerDiagnostics =
        request.op === 'read'
          ? { pid: process.pid, diagnostics: await readBenchDiagnostics() }
          : { pid: process.pid };
      await commands
        .multi()
        .rpush(request.reply, JSON.stringify(answer))
        .expire(request.reply, REPLY_TTL_S)
        .exec();
    })().catch((error: unknown) =>
      console.error(`[loop-lab] bench diagnostics: a request was not answered: ${(error as Error).message}`),
    );
  });
  await subscriber.subscribe(BENCH_DIAGNOSTICS_CHANNEL);
  return async () => {
    await subscriber.quit();
    await commands.quit();
  };
}

/**
 * The bench's side: asks every worker listening on `redisUrl` to reset or read its figures, and
 * waits for as many answers as Redis says received the request (within `timeoutS` each).
 */
export async function askWorkers(
  redisUrl: string,
  op: Request['op'],
  timeoutS = 30,
): Promise<WorkerDiagnostics[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    const reply = `${BENCH_DIAGNOSTICS_CHANNEL}:reply:${randomUUID()}`;
    const listeners = await redis.publish(
      BENCH_DIAGNOSTICS_CHANNEL,
      JSON.stringify({ op, reply } satisfies Request),
    );
    const answers: WorkerDiagnostics[] = [];
    for (let i = 0; i < listeners; i += 1) {
      const popped = await redis.blpop(reply, timeoutS);
      if (!popped)
        throw new Error(
          `${answers.length} of ${listeners} workers answered a bench diagnostics ${op} within ${timeoutS} s`,
        );
      answers.push(JSON.parse(popped[1]) as WorkerDiagnostics);
    }
    await redis.del(reply);
    return answers;
  } finally {
    await redis.quit();
  }
}
