/**
 * Next calls `register` once when a server process starts, before it serves a request. The
 * server's environment is checked first: a setting that cannot work stops the process with the
 * variable and what to fix, instead of a server that answers every page with a 500. Then the run
 * registry is made so the runs a previous process left in flight are resumed (or closed with
 * their reason) at boot rather than at the first request that touches a run
 * (lib/server/resume-runs.ts). Only the Node.js runtime of a serving process has the store and the
 * run threads.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // `next build` loads this file too, to prerender pages: a build takes up no one's runs.
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { serverEnv, ServerEnvError } = await import('@/lib/config/server-env');
  try {
    serverEnv();
  } catch (error) {
    if (!(error instanceof ServerEnvError)) throw error;
    console.error(`Loop Lab cannot start: ${error.message}. Fix it in the environment and start again.`);
    process.exit(1);
  }
  const { startRunRegistry } = await import('@/lib/server/get-run-registry');
  await startRunRegistry();
}
