import { SIM_SERVE_PORT } from '@/lib/client/wire/as-code';
import { createPolicy, startSimulatedVendors } from '@/lib/sim';
import { getScenario } from '@/lib/tools';

/**
 * `npm run sim:serve [-- --port N]`: every simulated vendor on 127.0.0.1, as an HTTP proxy for the
 * requests a run page's wire view copies (their hosts, such as sim.anthropic.local, never resolve):
 * run a copied curl with `http_proxy=http://127.0.0.1:4010`. The model answers as the playground's
 * simulated model does on the fix-failing-test scenario. Stop it with Ctrl-C.
 */
const at = process.argv.indexOf('--port');
const port = at >= 0 ? Number(process.argv[at + 1]) : SIM_SERVE_PORT;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a whole number from 0 to 65535 (got "${process.argv[at + 1] ?? ''}")`);
  process.exit(2);
}
const server = await startSimulatedVendors({
  port,
  policy: createPolicy('worker', getScenario('fix-failing-test')!),
});
console.log(`simulated vendors on ${server.url}: send a copied request with http_proxy=${server.url}`);
