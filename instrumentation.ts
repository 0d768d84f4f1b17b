/**
 * Next calls `register` once when a server process starts, before it serves a request. The run
 * registry is made here so the runs a previous process left in flight are resumed (or closed with
 * their reason) at boot rather than at the first request that touches a run
 * (lib/server/resume-runs.ts). Only the Node.js runtime has the store and the run threads.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getRunRegistry } = await import('@/lib/server/get-run-registry');
  getRunRegistry();
}
