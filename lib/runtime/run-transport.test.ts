import { describe, expect, it } from 'vitest';
import { createClock, createRandom } from '@/lib/clock';
import { RunConfigSchema, type EventBody, type FaultPlan, type RunEvent } from '@/lib/protocol';
import { createPolicy } from '@/lib/sim';
import { getScenario } from '@/lib/tools';
import type { BoundVendor } from './bind-vendor';
import { createRunTransport } from './run-transport';

const plan: FaultPlan = {
  rules: [1, 3].map((n) => ({
    id: `e${n}`,
    enabled: true,
    when: { kind: 'requests' as const, numbers: [n] },
    action: { type: 'http_error' as const, status: 503 },
  })),
  tools: [],
};

describe('the run transport', () => {
  it('counts requests once across a swap, faults them on that count, and routes the rest to the vendor in force', async () => {
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
    const events: EventBody[] = [];
    const log = {
      emit: (body: EventBody) => (events.push(body), body as RunEvent),
      iteration: 4,
      inBackground: false,
    };
    const reached: string[] = [];
    let sdkFetch: typeof fetch | undefined;
    let inForce: BoundVendor | undefined;
    const bind = createRunTransport({
      config,
      clock: createClock({ kind: 'virtual', timeScale: 1 }),
      random: createRandom(1),
      policy: createPolicy('worker', getScenario('fix-failing-test')!),
      sdkMaxRetries: 0,
      promptCache: true,
      log,
      faults: () => plan,
      inForce: () => inForce!,
      taps: {
        onVendorRequest: ({ vendor }) => reached.push(vendor),
        tapFetch: (inner) => (sdkFetch = inner),
      },
    });
    inForce = bind({ vendor: 'sim-anthropic', model: '' });
    const post = (url: string) =>
      sdkFetch!(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

    expect((await post('https://api.anthropic.com/v1/messages')).status).toBe(503);
    expect((await post('https://api.anthropic.com/v1/messages')).status).toBe(401); // the simulated vendor itself answered: no key
    inForce = bind({ vendor: 'sim-openai', model: '' });
    expect((await post('https://api.openai.com/v1/chat/completions')).status).toBe(503);
    expect((await post('https://api.openai.com/v1/chat/completions')).status).toBe(401); // the simulated vendor itself answered: no key

    expect(reached).toEqual(['sim-anthropic', 'sim-openai']);
    expect(events.map((e) => e.event === 'fault_injected' && [e.request_no, e.rule_id, e.iteration])).toEqual(
      [
        [1, 'e1', 4],
        [3, 'e3', 4],
      ],
    );
  });
});
