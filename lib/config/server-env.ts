import { z } from 'zod';

/**
 * The server's environment, read in one place. Every `LOOP_LAB_*` variable is parsed here with
 * its rule (docs/config.md lists them); a bad value throws a ServerEnvError that names the
 * variable and what it accepts. The environment is read on every call, not cached: tests and
 * scripts set variables before the code that reads them runs.
 */
export class ServerEnvError extends Error {
  override readonly name = 'ServerEnvError';
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Unset and blank are the same: the default. */
const text = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));
/** A comma- or space-separated list. */
const list = text.transform((value) => (value ?? '').split(/[\s,]+/).filter(Boolean));
const onOff = text
  .transform((value) => value?.toLowerCase())
  .pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).optional());
const wholeNumber = (min: number) =>
  text
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .pipe(
      z
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .min(min, { error: `must be at least ${min}` })
        .optional(),
    );
const databaseUrl = text.pipe(
  z
    .url({
      protocol: /^postgres(ql)?$/,
      error:
        'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@127.0.0.1:5432/loop_lab',
    })
    .optional(),
);
const redisUrl = text.pipe(
  z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379' })
    .optional(),
);

/**
 * The MCP servers a run through the web API may name (`{"name", "allowed": true}`), as JSON: by
 * name, a stdio command (`{"command", "args"}`) or a Streamable HTTP URL (`{"url"}`).
 */
const mcpServers = text
  .transform((value, ctx) => {
    if (value === undefined) return {};
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be JSON: {"<name>": {"command": "…", "args": […]} or {"url": "…"}}',
      });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .record(
        z.string(),
        z.union(
          [
            z.object({ command: z.string().min(1), args: z.array(z.string()).default([]) }).strict(),
            z.object({ url: z.url({ protocol: /^https?$/ }) }).strict(),
          ],
          { error: 'each server is {"command": "…", "args": […]} or {"url": "http://…"}' },
        ),
      )
      .superRefine((servers, ctx) => {
        for (const name of Object.keys(servers))
          if (!/^[a-z][a-z0-9-]{0,31}$/.test(name))
            ctx.addIssue({
              code: 'custom',
              message: `"${name}" is not a server name: lower-case letters, digits and dashes, a letter first`,
            });
      }),
  );

/** The room code: what a visitor types to join; no spaces, so it survives being read aloud and typed. */
const roomCode = text.pipe(
  z
    .string()
    .min(4, { error: 'must be at least 4 characters' })
    .max(200, { error: 'must be at most 200 characters' })
    .regex(/^\S+$/, { error: 'must not contain spaces' })
    .optional(),
);
/** iron-session seals with a password of at least 32 characters. */
const sessionSecret = text.pipe(
  z.string().min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -hex 32`)' }).optional(),
);

const SCHEMA = z.object({
  LOOP_LAB_DATA_DIR: text,
  LOOP_LAB_ROOT: text,
  LOOP_LAB_UNWATCHED_MS: wholeNumber(1),
  LOOP_LAB_REDIS_URL: redisUrl,
  LOOP_LAB_DATABASE_URL: databaseUrl,
  DATABASE_URL: databaseUrl,
  /** The name hosts give a Redis they provide; LOOP_LAB_REDIS_URL wins when both are set. */
  REDIS_URL: redisUrl,
  LOOP_LAB_WORKER_RATE_PER_MIN: wholeNumber(0),
  LOOP_LAB_RUN_LOCK_MS: wholeNumber(500),
  LOOP_LAB_SANDBOX_NETNS: onOff,
  LOOP_LAB_HOST: text,
  LOOP_LAB_ALLOWED_HOSTS: list,
  LOOP_LAB_ALLOWED_BASE_URLS: list,
  LOOP_LAB_CUSTOM_BASE_URLS: onOff,
  LOOP_LAB_ALLOWED_REQUEST_HOSTS: list,
  LOOP_LAB_RUN_THREADS: wholeNumber(0),
  LOOP_LAB_BENCH_DIAGNOSTICS: text.pipe(z.enum(['0', '1'], { error: 'must be 1 (on) or 0' }).optional()),
  LOOP_LAB_ROOM_CODE: roomCode,
  LOOP_LAB_TEACHER_CODE: roomCode,
  LOOP_LAB_SESSION_SECRET: sessionSecret,
  LOOP_LAB_ROOM_LIVE_RUNS: wholeNumber(1),
  LOOP_LAB_ROOM_RUNS_PER_MIN: wholeNumber(1),
  LOOP_LAB_ROOM_SWEEP_RUNS: wholeNumber(1),
  LOOP_LAB_MCP_SERVERS: mcpServers,
});

/**
 * Run threads a server keeps when LOOP_LAB_RUN_THREADS is not set: real-clock runs execute off the
 * thread that routes, stores and streams, so a busy request path cannot make a run's timers late.
 */
export const DEFAULT_RUN_THREADS = 2;
/** How long a run may go unwatched before it is abandoned, when LOOP_LAB_UNWATCHED_MS is unset: one minute. */
export const DEFAULT_UNWATCHED_MS = 60_000;

/** A room visitor's live runs at once, when LOOP_LAB_ROOM_LIVE_RUNS is unset (a lesson plays two). */
export const DEFAULT_ROOM_LIVE_RUNS = 3;
/** Runs a room visitor may start a minute, when LOOP_LAB_ROOM_RUNS_PER_MIN is unset. */
export const DEFAULT_ROOM_RUNS_PER_MIN = 12;
/** Runs one sweep of a room visitor may hold, when LOOP_LAB_ROOM_SWEEP_RUNS is unset. */
export const DEFAULT_ROOM_SWEEP_RUNS = 24;

/** Variables whose values an error must not quote. */
const SECRET_VARS: ReadonlySet<string> = new Set([
  'LOOP_LAB_ROOM_CODE',
  'LOOP_LAB_TEACHER_CODE',
  'LOOP_LAB_SESSION_SECRET',
  // A server's command line or URL may carry a token.
  'LOOP_LAB_MCP_SERVERS',
  // A database URL carries its password.
  'LOOP_LAB_DATABASE_URL',
  'DATABASE_URL',
]);

/** The variables this module reads, by name. */
export const SERVER_ENV_VARS = Object.keys(SCHEMA.shape) as readonly (keyof typeof SCHEMA.shape)[];

export interface ServerEnv {
  /** LOOP_LAB_DATA_DIR: where the SQLite store lives (unset: `.data/` in the project). */
  dataDir: string | undefined;
  /** LOOP_LAB_ROOT: the project root when the process starts elsewhere (unset: the working directory). */
  root: string | undefined;
  /** LOOP_LAB_UNWATCHED_MS: how long a run may go unwatched before it is abandoned (default one minute). */
  unwatchedMs: number;
  /**
   * LOOP_LAB_REDIS_URL (or REDIS_URL): sweeps and runs go through BullMQ on this Redis, to `npm run worker`
   * processes (unset: the local worker pool, and runs in the web process).
   */
  redisUrl: string | undefined;
  /** LOOP_LAB_DATABASE_URL, else DATABASE_URL: the store is this Postgres database (unset: SQLite in the data folder). */
  databaseUrl: string | undefined;
  /**
   * LOOP_LAB_RUN_LOCK_MS: how long a queue worker's hold on a run lasts unrenewed, so how soon a lost
   * worker's runs go on another (unset: lib/server/run-jobs.ts's RUN_LOCK_MS).
   */
  runLockMs: number | undefined;
  /** LOOP_LAB_WORKER_RATE_PER_MIN: at most this many queued sweep jobs a minute (0: no cap). */
  workerRatePerMin: number;
  /** LOOP_LAB_SANDBOX_NETNS: false when `off` (check children start without their private network). */
  sandboxNetns: boolean;
  /** LOOP_LAB_HOST: the address the server listens on. */
  host: string | undefined;
  /** LOOP_LAB_ALLOWED_HOSTS: further names the API may be reached under. */
  allowedHosts: string[];
  /** LOOP_LAB_ALLOWED_BASE_URLS: further base URLs the environment's keys may be sent to (checked as URLs by the key routing). */
  allowedBaseUrls: string[];
  /** LOOP_LAB_CUSTOM_BASE_URLS: false when `off` (a run request may not choose a base URL the environment does not name). */
  customBaseUrls: boolean;
  /** LOOP_LAB_ALLOWED_REQUEST_HOSTS: local or private hosts a run bringing its own key may aim at. */
  allowedRequestHosts: string[];
  /** LOOP_LAB_RUN_THREADS: worker threads for real-clock runs (DEFAULT_RUN_THREADS unless set; 0: the main thread). */
  runThreads: number;
  /** LOOP_LAB_BENCH_DIAGNOSTICS=1: the load bench's opt-in figures (GET /api/bench-diagnostics, loopback only). */
  benchDiagnostics: boolean;
  /** LOOP_LAB_ROOM_CODE: room mode, joined with this code (unset: one user, no code). */
  roomCode: string | undefined;
  /** LOOP_LAB_TEACHER_CODE: joining the room with this code gives a teacher's session (the board). */
  teacherCode: string | undefined;
  /** LOOP_LAB_SESSION_SECRET: seals room sessions (unset: a random secret made at server start). */
  sessionSecret: string | undefined;
  /** Room mode's fair shares, per visitor: live runs, runs started a minute, runs in one sweep. */
  roomLimits: { liveRuns: number; runsPerMinute: number; sweepRuns: number };
  /** LOOP_LAB_MCP_SERVERS: the MCP servers a run through the web API may name, by name (unset: none but the shipped one). */
  mcpServers: Record<string, { command: string; args: string[] } | { url: string }>;
}

/** The server's `LOOP_LAB_*` settings, validated. Throws ServerEnvError naming the first bad variable. */
export function serverEnv(source: EnvSource = processEnv()): ServerEnv {
  const picked: Record<string, string | undefined> = {};
  for (const name of SERVER_ENV_VARS) picked[name] = source[name];
  const parsed = SCHEMA.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    // A secret is not quoted back: the error is printed where the server starts.
    const got = SECRET_VARS.has(variable) ? '' : ` (got "${String(source[variable]).slice(0, 80)}")`;
    throw new ServerEnvError(variable, `${issue.message}${got}`);
  }
  const env = parsed.data;
  if (env.LOOP_LAB_TEACHER_CODE !== undefined && env.LOOP_LAB_ROOM_CODE === undefined)
    throw new ServerEnvError(
      'LOOP_LAB_TEACHER_CODE',
      'needs LOOP_LAB_ROOM_CODE: the teacher code joins a room, and without a room code there is none',
    );
  if (env.LOOP_LAB_TEACHER_CODE !== undefined && env.LOOP_LAB_TEACHER_CODE === env.LOOP_LAB_ROOM_CODE)
    throw new ServerEnvError(
      'LOOP_LAB_TEACHER_CODE',
      'must differ from LOOP_LAB_ROOM_CODE: every visitor knows the room code',
    );
  return {
    dataDir: env.LOOP_LAB_DATA_DIR,
    root: env.LOOP_LAB_ROOT,
    unwatchedMs: env.LOOP_LAB_UNWATCHED_MS ?? DEFAULT_UNWATCHED_MS,
    redisUrl: env.LOOP_LAB_REDIS_URL ?? env.REDIS_URL,
    databaseUrl: env.LOOP_LAB_DATABASE_URL ?? env.DATABASE_URL,
    workerRatePerMin: env.LOOP_LAB_WORKER_RATE_PER_MIN ?? 0,
    runLockMs: env.LOOP_LAB_RUN_LOCK_MS,
    sandboxNetns: env.LOOP_LAB_SANDBOX_NETNS !== 'off',
    host: env.LOOP_LAB_HOST,
    allowedHosts: env.LOOP_LAB_ALLOWED_HOSTS,
    allowedBaseUrls: env.LOOP_LAB_ALLOWED_BASE_URLS,
    customBaseUrls: env.LOOP_LAB_CUSTOM_BASE_URLS !== 'off',
    allowedRequestHosts: env.LOOP_LAB_ALLOWED_REQUEST_HOSTS,
    runThreads: env.LOOP_LAB_RUN_THREADS ?? DEFAULT_RUN_THREADS,
    benchDiagnostics: env.LOOP_LAB_BENCH_DIAGNOSTICS === '1',
    roomCode: env.LOOP_LAB_ROOM_CODE,
    teacherCode: env.LOOP_LAB_TEACHER_CODE,
    sessionSecret: env.LOOP_LAB_SESSION_SECRET,
    roomLimits: {
      liveRuns: env.LOOP_LAB_ROOM_LIVE_RUNS ?? DEFAULT_ROOM_LIVE_RUNS,
      runsPerMinute: env.LOOP_LAB_ROOM_RUNS_PER_MIN ?? DEFAULT_ROOM_RUNS_PER_MIN,
      sweepRuns: env.LOOP_LAB_ROOM_SWEEP_RUNS ?? DEFAULT_ROOM_SWEEP_RUNS,
    },
    mcpServers: env.LOOP_LAB_MCP_SERVERS,
  };
}

/**
 * The process environment as variables read by name: the vendors' keys and base URLs
 * (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`, …, which the key routing reads for the vendor a run
 * names) and every variable that looks like a secret (which redaction removes from what a run
 * writes). The one place outside scripts that reads `process.env`.
 */
export function processEnv(): EnvSource {
  return process.env;
}
