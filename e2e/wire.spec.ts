import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './test';
import { RunPage } from './pages/run-page';
import { createRandom, RealClock } from '../lib/clock';
import {
  createPolicy,
  createSimOpenAI,
  startSimServer,
  startSimulatedVendors,
  type SimServer,
} from '../lib/sim';
import { getScenario } from '../lib/tools';

const run = promisify(execFile);
/** The one key the served vendors accept, in every variable a copy may read it from. */
const KEY = 'sk-e2e-wire-key';
const KEYS = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY, DEEPSEEK_API_KEY: KEY };
const policy = () => createPolicy('worker', getScenario('fix-failing-test')!);
const rateLimited = {
  rules: [
    {
      id: 'busy',
      enabled: true,
      when: { kind: 'requests', numbers: [1] },
      action: { type: 'http_error', status: 429, retryAfterSec: 1 },
    },
  ],
  tools: [],
};

let sims: SimServer;
let compatible: SimServer;
test.beforeAll(async () => {
  // `npm run sim:serve`'s server (on a free port): the proxy a simulated vendor's copied command is run through.
  sims = await startSimulatedVendors({ policy: policy(), apiKey: KEY });
  // An OpenAI-compatible server on 127.0.0.1 (the test servers allow it for runs with their own key).
  compatible = await startSimServer({
    dialect: 'openai',
    fetch: createSimOpenAI({
      clock: new RealClock(),
      random: createRandom(5),
      policy: policy(),
      apiKey: KEY,
    }),
  });
});
test.afterAll(async () => {
  await Promise.all([sims?.close(), compatible?.close()]);
});

/** Each wire dialect: a run whose first request is answered 429 by the fault wrapper, and what ends its stream. */
const DIALECTS = [
  { name: 'Anthropic Messages', provider: { vendor: 'sim-anthropic' }, end: /event: message_stop\n/ },
  { name: 'OpenAI Chat Completions', provider: { vendor: 'sim-openai' }, end: /data: \[DONE\]\n/ },
  {
    name: 'OpenAI Responses',
    provider: { vendor: 'sim-openai-responses' },
    end: /event: response\.completed\n/,
  },
  {
    name: 'OpenAI-compatible',
    provider: { vendor: 'openai-compatible', model: 'gpt-sim-4o' },
    end: /data: \[DONE\]\n/,
  },
] as const;

for (const dialect of DIALECTS) {
  test(`an attempt's wire on ${dialect.name}: the 429 the SDK got, and the copied curl runs against the vendor`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
    const compatibleRun = dialect.provider.vendor === 'openai-compatible';
    const created = await page.request.post('/api/runs', {
      data: {
        config: {
          seed: 4,
          faults: rateLimited,
          ...(compatibleRun
            ? {
                provider: { ...dialect.provider, baseUrl: `${compatible.url}/v1`, keySource: 'request' },
                clock: 'real',
                timeScale: 0.01,
                budgets: { maxIterations: 2 },
              }
            : { provider: dialect.provider, clock: 'virtual' }),
        },
        ...(compatibleRun ? { apiKey: KEY } : {}),
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const runPage = new RunPage(page);
    await runPage.goto(id);
    await expect(page.getByTestId('terminate-banner').first()).toBeVisible({ timeout: 60_000 });

    // The first attempt (its ladder step selects it): request 1, answered 429 by the fault rule, as the SDK received it.
    await page.getByTestId('ladder-step').first().click();
    const inspector = runPage.inspector;
    await expect(inspector).toContainText('Attempt 1 · request 1');
    await inspector.getByTestId('wire-toggle').click();
    const exchange = inspector.getByTestId('wire-exchange').first();
    await expect(exchange).toHaveAttribute('data-request-no', '1');
    await expect(exchange.getByTestId('wire-status')).toHaveText('HTTP 429');
    await expect(exchange.getByTestId('wire-fault')).toContainText('fault rule busy');
    await exchange.getByTestId('wire-request-headers').locator('summary').click();
    await expect(exchange.getByTestId('wire-request-headers')).toContainText('[key]');
    await expect(exchange.getByTestId('wire-request-headers')).not.toContainText(KEY);

    // Copy as curl: it says so, and the command, run as copied, gets the vendor's answer to that request.
    await exchange.getByTestId('copy-wire-curl').click();
    await expect(exchange.getByTestId('copy-wire-curl-status')).toHaveText(
      'Copied — the key is an environment variable: set it in your shell',
    );
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).not.toContain(KEY);
    expect(curl).toContain('$');
    const env = {
      ...process.env,
      ...KEYS,
      ...(compatibleRun ? { no_proxy: '127.0.0.1' } : { http_proxy: sims.url }),
    };
    const { stdout } = await run('bash', ['-c', curl], { env, timeout: 30_000 });
    expect(stdout).toMatch(dialect.end);

    // The SDK calls copy and confirm too.
    for (const [button, call] of [
      ['copy-wire-ts', /client\.(messages|chat\.completions|responses)\.create\(/],
      ['copy-wire-py', /answer = client\.(messages|chat\.completions|responses)\.create\(\*\*body\)/],
    ] as const) {
      await exchange.getByTestId(button).click();
      await expect(exchange.getByTestId(`${button}-status`)).toHaveText(/^Copied/);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(call);
    }
  });
}
