import { describe } from 'vitest';
import { roomStoresContract } from './contract/room-stores.testkit';
import { runLeaseContract } from './contract/run-lease.testkit';
import { runListContract } from './contract/run-list.testkit';
import { runLogContract } from './contract/run-log.testkit';
import { runOwnershipContract } from './contract/run-ownership.testkit';
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
  runLogContract(backend);
  runListContract(backend);
  runOwnershipContract(backend);
  runLeaseContract(backend);
  sweepStoreContract(backend);
  roomStoresContract(backend);
  sharedFilesContract(backend);
});
