import pg from 'pg';

/** Postgres's type ids the store reads as numbers: BIGINT (count(*), sum(), epoch-ms columns). */
const INT8 = 20;

/**
 * The store's connection pool. BIGINT columns (epoch ms, token totals) and count(*) come back as
 * JS numbers, as SQLite's INTEGER does, instead of pg's default strings: the values the store
 * keeps are far below 2^53. Set per pool, never on pg's process-wide parsers.
 */
export function createStorePool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 && format !== 'binary'
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's connection dropped (a server restart): pg emits it on the pool; the next
  // query opens a new one. Unhandled, it would end the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `work` in one transaction on one pooled client: committed when it resolves, rolled back
 * (and the error passed on) when it throws.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Something that runs a query: the pool, or a transaction's client. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** What each Postgres store opens with (lib/store/postgres/index.ts). */
export interface PoolStoreOptions {
  pool: pg.Pool;
  /** This opening's owner id (lib/store/run-owner.ts), written on each run or sweep it creates. */
  owner: string;
  /** Called by close(): the pool is shared with the other stores. */
  release: () => Promise<void>;
}
