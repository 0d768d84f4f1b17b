/**
 * Next calls `register` once when a server process starts, before it serves a request. The run
 * registry is made here so the runs a previous process left in flight are resumed (or closed with
 * their reason) at boot rather than at the first request that touches a run
 * (lib/server/resume-runs.ts). Only the Node.js runtime of a serving process has the store and the
 * run threads.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // `next build` loads this file too, to prerender pages: a build takes up no one's runs.
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startRunRegistry } = await import('@/lib/server/get-run-registry');
  await startRunRegistry();
}
