import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allCanaries, countCanaries, makeCanaries, scanFolder } from './canaries';
import { driveKeyAudit, type ApiTransport } from './key-audit';
import { standInEnv, startStandIns } from './vendor-stand-ins';

/**
 * `npm run audit:keys`: the key figures of README's "Keys" section, measured on the real
 * server. Builds the app with canary keys in its environment (so an inlined key would show in
 * the client bundle), starts `next start` on 127.0.0.1, drives every vendor through the HTTP
 * API against local stand-in vendors, runs the CLI, then counts canaries everywhere.
 * `--no-build` reuses an existing build (its bundle was not built with these canaries, so the
 * bundle row says so). Exit 1 when any count is not 0 or a case did not go as it must.
 */
const TIME_SCALE = 0.01;
const PORT = Number(process.env.AUDIT_PORT ?? 3309);
const ROOT = process.cwd();
const NEXT = path.join(ROOT, 'node_modules', '.bin', 'next');

interface Row {
  where: string;
  lookedAt: string;
  hits: number | string;
}

async function main(argv: string[]): Promise<number> {
  const build = !argv.includes('--no-build');
  const canaries = makeCanaries();
  const secrets = allCanaries(canaries);
  const standIns = await startStandIns({ timeScale: TIME_SCALE });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-audit-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    LOOP_LAB_DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: '1',
    ...standInEnv(standIns, canaries),
  };
  const rows: Row[] = [];
  let server: ChildProcess | undefined;
  let serverOutput = '';
  let failures: string[] = [];
  try {
    if (build) {
      console.log('building the app with canary keys in its environment (next build)…');
      const built = await runCommand(NEXT, ['build'], env);
      if (built.code !== 0) throw new Error(`next build failed:\n${built.output.slice(-2000)}`);
      serverOutput += built.output;
    } else if (!fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
      throw new Error('--no-build needs an existing build: run `npm run build` first');
    }

    const started = spawn(NEXT, ['start', '-p', String(PORT), '-H', '127.0.0.1'], {
      env: asProcessEnv(env),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = started;
    started.stdout.on('data', (d: Buffer) => (serverOutput += d.toString()));
    started.stderr.on('data', (d: Buffer) => (serverOutput += d.toString()));
    const origin = `http://127.0.0.1:${PORT}`;
    await waitFor(`${origin}/api/scenarios`, 60_000);

    const transport: ApiTransport = async ({ method, path: p, body, headers }) => {
      const response = await fetch(`${origin}${p}`, {
        method,
        headers: headers ?? {},
        ...(body !== undefined ? { body } : {}),
      });
      return {
        status: response.status,
        headers: [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
        body: await response.text(),
      };
    };
    console.log(`driving the API at ${origin} …`);
    const result = await driveKeyAudit({
      transport,
      standIns,
      canaries,
      timeScale: TIME_SCALE,
      ownHeaders: { origin, 'sec-fetch-site': 'same-origin' },
    });
    failures = result.outcomes
      .filter((o) => o.status !== o.expected)
      .map((o) => `${o.name}: HTTP ${o.status}, expected ${o.expected}`);

    console.log('running the CLI against an env-named stand-in and one that echoes the key …');
    const cli = await cliRuns(env, standIns.echo.anthropic.baseUrl, standIns.envNamed.openai.baseUrl);

    await stop(started);
    server = undefined;
    const store = scanFolder({ dir: dataDir, canaries: secrets });
    const bundle = scanFolder({ dir: path.join(ROOT, '.next', 'static'), canaries: secrets });
    rows.push(
      {
        where: 'store (SQLite file bytes)',
        lookedAt: `${store.files} files, ${kb(store.bytes)}`,
        hits: store.hits,
      },
      {
        where: 'HTTP responses (JSON, SSE, JSONL, OTLP)',
        lookedAt: `${result.responses} responses, ${kb(result.responseText.length)}`,
        hits: result.responseHits,
      },
      {
        where: 'server output (stdout/stderr)',
        lookedAt: kb(serverOutput.length),
        hits: countCanaries(serverOutput, secrets),
      },
      {
        where: 'CLI output and --out traces',
        lookedAt: `${cli.runs} runs, ${kb(cli.text.length)}`,
        hits: countCanaries(cli.text, secrets),
      },
      {
        where: 'client bundle (.next/static)',
        lookedAt: `${bundle.files} files, ${kb(bundle.bytes)}`,
        hits: build ? bundle.hits : `${bundle.hits} (not built with these canaries)`,
      },
      {
        where: 'env keys sent to request-chosen URLs',
        lookedAt: `${result.requestChosenRequests} requests received`,
        hits: result.envKeysAtRequestChosen,
      },
    );
    console.log(
      `\nkey audit: 3 canary keys (1 request, 2 environment), counted whole, encoded and in parts; ${result.outcomes.length} API cases on every vendor, ${cli.runs} CLI runs\n`,
    );
    for (const o of result.outcomes)
      console.log(
        `  ${o.status === o.expected ? 'ok ' : 'BAD'} ${String(o.status)}  ${o.name}${o.reason ? ` → ${o.reason}` : ''}`,
      );
    console.log('');
    const width = Math.max(...rows.map((r) => r.where.length)) + 2;
    const lookWidth = Math.max(...rows.map((r) => r.lookedAt.length)) + 2;
    console.log(`${'where'.padEnd(width)}${'looked at'.padEnd(lookWidth)}canary hits`);
    for (const row of rows)
      console.log(`${row.where.padEnd(width)}${row.lookedAt.padEnd(lookWidth)}${row.hits}`);
  } finally {
    if (server) await stop(server);
    await standIns.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  for (const failure of failures) console.error(`audit: ${failure}`);
  const clean = rows.every((r) => r.hits === 0 || (typeof r.hits === 'string' && r.hits.startsWith('0 ')));
  return clean && failures.length === 0 ? 0 : 1;
}

/** Two CLI runs: the environment key to a stand-in that echoes it, and a normal run. */
async function cliRuns(
  env: Record<string, string>,
  echoUrl: string,
  openaiUrl: string,
): Promise<{ runs: number; text: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-audit-cli-'));
  let text = '';
  const runs: [string, string[], Record<string, string>][] = [
    ['anthropic', ['--model', 'claude-sim-sonnet'], { ANTHROPIC_BASE_URL: echoUrl }],
    ['openai', ['--model', 'gpt-sim-4o'], { OPENAI_BASE_URL: openaiUrl }],
  ];
  for (const [index, [provider, extra, urls]] of runs.entries()) {
    const out = path.join(dir, `trace-${index}.jsonl`);
    const args = [
      '--import',
      'tsx',
      'lib/cli/main.ts',
      '--provider',
      provider,
      ...extra,
      '--time-scale',
      String(TIME_SCALE),
      '--out',
      out,
    ];
    const result = await runCommand(process.execPath, args, { ...env, ...urls });
    text += result.output + (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '');
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { runs: runs.length, text };
}

function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: asProcessEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** Stops the server this audit started (its own process group, by id). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('close', () => resolve());
    process.kill(-child.pid, 'SIGTERM');
  });
}

function asProcessEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return env as unknown as NodeJS.ProcessEnv;
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
