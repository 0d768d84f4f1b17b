import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RealClock, createRandom } from '@/lib/clock';
import { withFaults } from '@/lib/faults';
import { parseEventJson, type FaultPlan, type RunEvent } from '@/lib/protocol';
import { createPolicy, createSimAnthropic, createSimOpenAI, startSimServer, type SimServer } from '@/lib/sim';
import { getScenario } from '@/lib/tools';

/**
 * The CLI as a person runs it, against a local HTTP server that speaks each vendor's API
 * (the simulated vendor served over real HTTP), on the real clock at a small time scale.
 */
const SCALE = 0.01;
const KEY = 'sk-test-cli-secret-4242';
let servers: SimServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(
  dialect: 'anthropic' | 'openai',
  plan: FaultPlan = { rules: [], tools: [] },
): Promise<SimServer> {
  const clock = new RealClock(SCALE);
  const random = createRandom(3);
  const scenario = getScenario('fix-failing-test')!;
  const sim = (dialect === 'anthropic' ? createSimAnthropic : createSimOpenAI)({
    clock,
    random,
    policy: createPolicy('worker', scenario),
  });
  const fetch = withFaults({
    fetch: sim,
    dialect,
    plan: () => plan,
    clock,
    random: random.fork('faults'),
    onInject: () => {},
  });
  const server = await startSimServer({ dialect, fetch });
  servers.push(server);
  return server;
}

function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function readTrace(path: string): RunEvent[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseEventJson(line));
}

const outFile = (): string => join(mkdtempSync(join(tmpdir(), 'loop-cli-')), 'trace.jsonl');

describe('npm run loop', () => {
  it('completes the default task against a local server speaking the Anthropic API', async () => {
    const server = await serve('anthropic');
    const out = outFile();
    const result = await runCli(
      [
        '--provider',
        'anthropic',
        '--model',
        'claude-sim-sonnet',
        '--time-scale',
        String(SCALE),
        '--out',
        out,
      ],
      {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: KEY,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout.slice(-3000)).toBe(0);
    expect(result.stdout).toMatch(/completed: end_turn/);
    expect(result.stdout).toMatch(/run_check/);
    const trace = readTrace(out);
    expect(trace.at(-1)).toMatchObject({ event: 'terminate', complete: true });
    expect(readFileSync(out, 'utf8')).not.toContain(KEY);
    expect(result.stdout).not.toContain(KEY);
  }, 60_000);

  it('completes the default task against a local server speaking the OpenAI API', async () => {
    const server = await serve('openai');
    const result = await runCli(
      ['--provider', 'openai', '--model', 'gpt-sim-4o', '--time-scale', String(SCALE), '--quiet'],
      {
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: KEY,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/completed: end_turn/);
  }, 60_000);

  it('recovers from a misbehaving server: overloads, then a stalled stream the watchdog cuts', async () => {
    const server = await serve('anthropic', {
      rules: [
        {
          id: 'o',
          enabled: true,
          when: { kind: 'requests', numbers: [1, 2] },
          action: { type: 'http_error', status: 529 },
        },
        {
          id: 's',
          enabled: true,
          when: { kind: 'requests', numbers: [3] },
          action: { type: 'stall', afterEvents: 0 },
        },
      ],
      tools: [],
    });
    const out = outFile();
    const result = await runCli(
      [
        '--provider',
        'anthropic',
        '--model',
        'claude-sim-sonnet',
        '--time-scale',
        String(SCALE),
        '--out',
        out,
      ],
      {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: KEY,
      },
    );
    expect(result.code).toBe(0);
    const trace = readTrace(out);
    const retries = trace.filter((e) => e.event === 'retry_scheduled');
    expect(retries.map((r) => r.event === 'retry_scheduled' && r.category)).toEqual([
      'overloaded',
      'overloaded',
      'timeout',
    ]);
    expect(trace.find((e) => e.event === 'watchdog_fired')).toMatchObject({
      outcome: 'empty',
      window_ms: 180_000,
    });
    expect(result.stdout).toMatch(/watchdog fired/);
  }, 60_000);

  it('exits 1 when the run ends incomplete (a bad key is not retried)', async () => {
    const server = await serve('openai', {
      rules: [
        { id: 'k', enabled: true, when: { kind: 'always' }, action: { type: 'http_error', status: 401 } },
      ],
      tools: [],
    });
    const result = await runCli(
      ['--provider', 'openai', '--model', 'gpt-sim-4o', '--time-scale', String(SCALE)],
      {
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: KEY,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/incomplete: model_error/);
    expect(result.stdout).toMatch(/authentication/);
  }, 60_000);

  it('exits 2 with the reason on bad input', async () => {
    const bad = await runCli(['--preset', 'fastest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/preset/);
    const noKey = await runCli(['--provider', 'anthropic']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/ANTHROPIC_API_KEY/);
  }, 60_000);

  it('--swap-at moves the run across simulated vendors at the turns given', async () => {
    const out = outFile();
    const result = await runCli([
      '--clock',
      'virtual',
      '--swap-at',
      '2:sim-openai',
      '--swap-at',
      '3:sim-deepseek',
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const events = readTrace(out);
    const swaps = events.filter((e) => e.event === 'swap');
    expect(swaps.map((e) => e.event === 'swap' && `${e.iteration}:${e.to_vendor}`)).toEqual([
      '2:sim-openai',
      '3:sim-deepseek',
    ]);
    expect(events.filter((e) => e.event === 'model_error')).toEqual([]);
  }, 60_000);
});
