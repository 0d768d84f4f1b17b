import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';

/**
 * `npm run fuzz [-- N]`: sends N (default 1200) fuzzed requests to every route — malformed
 * configs, control messages, JSONL and OTLP imports, prompt sets, sweep grids, lessons, compare
 * queries, SSE resume points, paths, Host and Origin headers — through the real route handlers
 * (proxy first, as Next does) and prints how many answered 5xx; then sends each Host and Origin
 * spelling no browser sends (`127.0.0.1.:PORT`, `http://evil@127.0.0.1:PORT`, …) to every route
 * and counts those not refused with a 403. Exit 1 when any answered 5xx or was let in.
 */
async function main(): Promise<number> {
  const count = Number(process.argv[2] ?? 1200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-fuzz-'));
  process.env.LOOP_LAB_DATA_DIR = dir;
  process.env.LOOP_LAB_UNWATCHED_MS ??= '5000';
  const { dispatch, fuzzRequests, startValidRun, UNBROWSER_HOSTS, UNBROWSER_ORIGINS } =
    await import('./api-fuzz');
  const { ROUTES } = await import('./dispatch-route');
  const { getRunRegistry, getSweepRegistry } = await import('@/lib/server');
  const knownId = await startValidRun();
  await getRunRegistry().whenFinished(knownId);
  const sweep = await dispatch({
    method: 'POST',
    path: '/api/sweeps',
    body: JSON.stringify({ configurations: [{ id: 'naive', preset: 'naive' }], seeds: { from: 1, to: 1 } }),
  });
  const knownSweepId = ((await sweep.json()) as { id: string }).id;
  await getSweepRegistry().whenFinished(knownSweepId);

  const byStatus = new Map<number, number>();
  const failures: string[] = [];
  const started = performance.now();
  for (const request of fc.sample(fuzzRequests(knownId, knownSweepId), {
    numRuns: count,
    seed: Number(process.env.FUZZ_SEED ?? 7),
  })) {
    let status: number;
    let text = '';
    try {
      const response = await dispatch(request);
      status = response.status;
      text = await response.text();
    } catch (error) {
      status = 599; // the handler threw past its own error handling: as bad as a 5xx
      text = String(error);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status >= 500 && failures.length < 5)
      failures.push(`${request.method} ${request.path} → ${status}: ${text.slice(0, 200)}`);
  }
  // The spellings no browser sends, on every route: each a 403 from the proxy, before any route runs.
  const spellings = [
    ...UNBROWSER_HOSTS.map((host) => ({ host })),
    ...UNBROWSER_ORIGINS.map((origin) => ({ host: 'localhost:3000', origin })),
  ];
  let letIn = 0;
  for (const route of ROUTES) {
    const path = route.pattern.replace(/:\w+/g, knownId);
    for (const headers of spellings) {
      const response = await dispatch({ method: route.method, path, body: '{}', headers });
      await response.body?.cancel();
      if (response.status !== 403) {
        letIn += 1;
        if (failures.length < 10)
          failures.push(
            `${route.method} ${path} with ${JSON.stringify(headers)} → ${response.status}, not 403`,
          );
      }
    }
  }
  const alive = await startValidRun().then(
    () => true,
    () => false,
  );
  const fiveXx = [...byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const table = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s}×${c}`)
    .join('  ');
  console.log(`fuzzed ${count} requests in ${((performance.now() - started) / 1000).toFixed(1)} s: ${table}`);
  console.log(
    `5xx from app code: ${fiveXx}; server still answers a valid run afterwards: ${alive ? 'yes' : 'NO'}`,
  );
  console.log(
    `Host and Origin spellings no browser sends: ${spellings.length} on each of ${ROUTES.length} routes, ${letIn} let in (each must be a 403)`,
  );
  for (const failure of failures) console.log(`  ${failure}`);
  fs.rmSync(dir, { recursive: true, force: true });
  return fiveXx === 0 && alive && letIn === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
