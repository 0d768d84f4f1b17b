// A worker thread of the local sweep pool (lib/sweeps/local-pool.ts). Plain JavaScript on
// purpose: it is loaded by file path at run time (by `next start`, the CLI and tests alike,
// none of which bundle it), and it teaches Node to load the TypeScript engine through tsx's
// scoped loader, with the project's tsconfig for the `@/` paths.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = path.dirname(fileURLToPath(import.meta.url));
const { runSweepJob } = await tsImport('./run-sweep-job.ts', {
  parentURL: import.meta.url,
  tsconfig: path.join(here, '..', '..', 'tsconfig.json'),
});

/** Piscina calls the default export with each task. */
export default function run(task) {
  return runSweepJob(task);
}
