import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom, RealClock } from '@/lib/clock';
import type { WireExchange } from '@/lib/protocol';
import {
  createPolicy,
  createSimOpenAI,
  startSimServer,
  startSimulatedVendors,
  type SimServer,
} from '@/lib/sim';
import { runWithWire, WIRE_VENDORS } from '@/lib/testing/wire-runs';
import { getScenario } from '@/lib/tools';
import { wireCurl, wirePython, wireTypeScript } from './as-code';

const run = promisify(execFile);
const policy = () => createPolicy('worker', getScenario('fix-failing-test')!);
const STREAM_END: Record<string, RegExp> = {
  anthropic: /event: message_stop\ndata: \{"type":"message_stop"\}\n\n$/,
  openai: /data: \[DONE\]\n\n$/,
  responses: /event: response\.completed\ndata: .*\n\n$/,
};
/** The one key the served vendors accept, and the variables the copies read it from. */
const KEY = 'sk-from-env';
const KEYS = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY, DEEPSEEK_API_KEY: KEY };
const WRONG = { ANTHROPIC_API_KEY: 'sk-other', OPENAI_API_KEY: 'sk-other', DEEPSEEK_API_KEY: 'sk-other' };

/**
 * What the wire view copies, run as copied: each dialect's first request (a 429 the fault
 * wrapper made, whose request is the vendor's first) as curl against the simulated vendors served
 * over HTTP (`npm run sim:serve`, here on a free port, as the proxy the copy says to use), and
 * against an OpenAI-compatible server a run reached over the network; the TypeScript SDK call
 * type-checked by tsc against the installed SDKs; the Python one run with the SDK stood in for by a
 * module that prints the arguments it was called with.
 */
describe('a request copied from the wire view', () => {
  let sims: SimServer;
  let compatible: SimServer;
  const firsts: WireExchange[] = [];
  const lasts: WireExchange[] = [];
  beforeAll(async () => {
    sims = await startSimulatedVendors({ policy: policy(), apiKey: KEY });
    compatible = await startSimServer({
      dialect: 'openai',
      fetch: createSimOpenAI({
        clock: new RealClock(),
        random: createRandom(5),
        policy: policy(),
        apiKey: KEY,
      }),
    });
    process.env.LOOP_LAB_ALLOWED_REQUEST_HOSTS = new URL(compatible.url).host;
    for (const vendor of WIRE_VENDORS) {
      const { wire } = await runWithWire(vendor);
      firsts.push(wire[0]!);
      lasts.push(wire.at(-1)!);
    }
    // OpenAI-compatible: a real vendor's path (the network), to a server named by the run's base URL.
    const { wire } = await runWithWire(
      'openai-compatible',
      {
        provider: {
          vendor: 'openai-compatible',
          model: 'gpt-sim-4o',
          baseUrl: `${compatible.url}/v1`,
          keySource: 'request',
        },
        clock: 'real',
        timeScale: 0.01,
        budgets: { maxIterations: 2 },
      },
      KEY,
    );
    expect(wire.some((x) => x.response?.status === 200)).toBe(true);
    firsts.push(wire[0]!);
    lasts.push(wire.at(-1)!);
  }, 120_000);
  afterAll(async () => {
    delete process.env.LOOP_LAB_ALLOWED_REQUEST_HOSTS;
    await Promise.all([sims?.close(), compatible?.close()]);
  });

  it('as curl, gets the answer the vendor gives that request, the key from the environment', async () => {
    expect(firsts.map((x) => x.vendor)).toEqual([...WIRE_VENDORS, 'openai-compatible']);
    for (const exchange of firsts) {
      const curl = wireCurl(exchange);
      expect(curl).not.toContain('[key]');
      const simulated = exchange.vendor.startsWith('sim-');
      expect(curl.includes('npm run sim:serve')).toBe(simulated);
      const env = {
        ...process.env,
        ...KEYS,
        ...(simulated ? { http_proxy: sims.url } : { no_proxy: '127.0.0.1' }),
      };
      const { stdout } = await run('bash', ['-c', curl], { env, timeout: 30_000 });
      expect(stdout, exchange.vendor).toMatch(STREAM_END[exchange.dialect]!);
      // Another key in the environment, and the same command is refused: the key is read from there.
      const refused = await run('bash', ['-c', curl], { env: { ...env, ...WRONG } });
      expect(refused.stdout, exchange.vendor).toMatch(/authentication_error|invalid_api_key/);
    }
  }, 120_000);

  it('as TypeScript, type-checks against the installed SDKs (and a body they reject does not)', async () => {
    const dir = path.join(process.cwd(), 'tmp', `wire-ts-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const files = [...firsts, ...lasts].map((x, i) => {
        const file = path.join(dir, `${x.vendor}-${i}.ts`);
        writeFileSync(file, wireTypeScript(x)!);
        return file;
      });
      const tsc = (paths: string[]) =>
        run(
          process.execPath,
          [
            path.join(process.cwd(), 'node_modules/typescript/bin/tsc'),
            ...['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'esnext'],
            ...['--moduleResolution', 'bundler', '--types', 'node', ...paths],
          ],
          { timeout: 120_000 },
        );
      await expect(tsc(files)).resolves.toBeDefined();
      const broken = path.join(dir, 'broken.ts');
      writeFileSync(
        broken,
        wireTypeScript(firsts[0]!)!.replace('"model": "claude-sim-sonnet"', '"model": 5'),
      );
      const failed = await tsc([broken]).catch((error: { stdout: string }) => error);
      expect(String((failed as { stdout?: string }).stdout)).toContain('error TS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('as Python, calls the SDK with the body as sent and the key from the environment', async () => {
    const stub = path.join(process.cwd(), 'tmp', `wire-py-${process.pid}`);
    mkdirSync(stub, { recursive: true });
    try {
      // The SDKs stood in for: each client prints what it was built with and called with.
      const sdk = (name: string, client: string) =>
        writeFileSync(
          path.join(stub, `${name}.py`),
          [
            'import json',
            `class ${client}:`,
            '    def __init__(self, **kw): self.kw = kw; self.messages = self; self.chat = self; self.completions = self; self.responses = self',
            '    def create(self, **body):',
            '        print(json.dumps({"client": self.kw, "body": body}))',
            '        return []',
            '',
          ].join('\n'),
        );
      sdk('anthropic', 'Anthropic');
      sdk('openai', 'OpenAI');
      for (const exchange of [...firsts, ...lasts]) {
        const { stdout } = await run('python3', ['-c', wirePython(exchange)!], {
          env: { ...process.env, PYTHONPATH: stub, ...KEYS },
        });
        const printed = JSON.parse(stdout) as {
          client: { api_key: string; base_url: string };
          body: unknown;
        };
        expect(printed.body).toEqual(JSON.parse(exchange.request.body));
        expect(printed.client.api_key).toBe(KEY);
        expect(exchange.request.url.startsWith(printed.client.base_url)).toBe(true);
      }
    } finally {
      rmSync(stub, { recursive: true, force: true });
    }
  }, 60_000);
});
