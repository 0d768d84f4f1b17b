/**
 * The browser tests' servers: `E2E_SERVERS` of them (default 2) on consecutive ports from
 * `E2E_PORT`, each `next start` with its own data folder, and one Playwright worker a server.
 * A worker sends every request of its spec file to its own server (e2e/test.ts), so two files
 * run at once without either seeing the other's runs, sweeps or sweep queue. The browser tests
 * mostly wait on real-clock runs: two at once take about half the time on two cores.
 */
export const FIRST_PORT = Number(process.env.E2E_PORT ?? 3217);
export const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS ?? 2));

/**
 * Spec files that run alone, after the others: what they check is timing on a live real-clock run
 * or its page (a countdown read against a card, a fault switched on before the run ends, scans of
 * a run while it waits), and a second browser beside them on two cores made those timings the
 * machine's. Everything else runs two at a time — the lessons too: they play on the paced clock,
 * so their counts are their virtual-clock runs' at any load.
 */
export const RUN_ALONE = ['accessibility', 'keyboard', 'lab-labels', 'run-lifecycle', 'takeover'].map(
  (name) => `**/${name}.spec.ts`,
);

/**
 * Spec files that start a deployment of their own (two `next start` instances, two workers, Redis
 * and Postgres): a project of their own, beside the others and before the timing specs, so that
 * those never share the machine with six more processes.
 */
export const DEPLOYMENTS = ['multi-instance'].map((name) => `**/${name}.spec.ts`);

/** The server of the worker in parallel slot `index` (0 … SERVERS − 1). */
export function serverUrl(index: number): string {
  return `http://127.0.0.1:${FIRST_PORT + (index % SERVERS)}`;
}
