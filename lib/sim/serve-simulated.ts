import { RealClock, createRandom } from '@/lib/clock';
import { vendorRows } from '@/lib/protocol';
import { startSimServer, type SimServer } from './http-server';
import { simulatorOf } from './simulators';
import type { Policy } from './types';

/**
 * Every simulated vendor on one local port, for a request copied from a run's wire view
 * (lib/client/wire/as-code.ts) to be sent again as it was: the copy keeps the URL the SDK sent to
 * (`http://sim.anthropic.local/v1/messages`), a host that never resolves, so the command is run
 * with this server as its HTTP proxy (`http_proxy=http://127.0.0.1:PORT`); the absolute URL it
 * then receives names the vendor by its host. Each vendor is one simulator on the real clock.
 */
export function startSimulatedVendors(options: {
  port?: number;
  policy: Policy;
  seed?: number;
  /** The only key the vendors accept (absent: any non-empty key). */
  apiKey?: string;
}): Promise<SimServer> {
  const clock = new RealClock();
  const random = createRandom(options.seed ?? 1);
  const byHost = new Map<string, typeof fetch>();
  for (const row of vendorRows()) {
    if (!row.simulated || !row.baseUrl) continue;
    byHost.set(
      new URL(row.baseUrl).host,
      simulatorOf(row.id).create({
        clock,
        random: random.fork(row.id),
        policy: options.policy,
        ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      }),
    );
  }
  const route = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const sim = byHost.get(url.host);
    if (!sim) {
      const hosts = [...byHost.keys()].join(', ');
      return Promise.resolve(
        new Response(
          JSON.stringify({
            error: {
              type: 'not_found_error',
              message: `no simulated vendor answers for ${url.host}: send the request through this server as a proxy to one of ${hosts}`,
            },
          }),
          { status: 404, headers: { 'content-type': 'application/json' } },
        ),
      );
    }
    return sim(input, init);
  }) as typeof fetch;
  return startSimServer({
    dialect: 'openai',
    fetch: route,
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
}
