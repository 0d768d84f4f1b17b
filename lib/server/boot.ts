import { serverEnv, ServerEnvError } from '@/lib/config/server-env';

/**
 * What a serving Node.js process does before its first request (instrumentation.ts calls it).
 * The environment is checked first: a setting that cannot work stops the process with the
 * variable and what to fix, instead of a server that answers every page with a 500. Then the run
 * registry is made, so the runs a previous process left in flight are resumed (or closed with
 * their reason) at boot rather than at the first request that touches a run
 * (lib/server/resume-runs.ts).
 */
export async function bootServer(): Promise<void> {
  try {
    serverEnv();
  } catch (error) {
    if (!(error instanceof ServerEnvError)) throw error;
    console.error(`Loop Lab cannot start: ${error.message}. Fix it in the environment and start again.`);
    process.exit(1);
  }
  // The registry, and the store it opens, are loaded only once the environment has passed.
  const { startRunRegistry } = await import('./get-run-registry');
  await startRunRegistry();
}
