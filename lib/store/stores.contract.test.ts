import { describe } from 'vitest';
import { roomStoresContract } from './contract/room-stores.testkit';
import { runStoreContract } from './contract/run-store.testkit';
import { sharedFilesContract } from './contract/shared-files.testkit';
import { BACKENDS, useStoreBackend } from './contract/store-backends.testkit';
import { sweepStoreContract } from './contract/sweep-store.testkit';

/**
 * The same store test suite on every backend: SQLite (the embedded default) and Postgres (a
 * throwaway cluster of Debian's postgresql, lib/testing/postgres-cluster.ts). When Postgres cannot
 * start, its half fails with the reason; it is never skipped.
 */
describe.each(BACKENDS)('the stores on %s', (name) => {
  const backend = useStoreBackend(name);
  runStoreContract(backend);
  sweepStoreContract(backend);
  roomStoresContract(backend);
  sharedFilesContract(backend);
});
