import type pg from 'pg';
import {
  MAX_WIRE_BYTES_PER_RUN,
  type CassetteExchange,
  type StoredWire,
  type WireExchange,
} from '@/lib/protocol';
import { sizeWords } from '../sqlite-wire-store';
import {
  TRAFFIC_SO_FAR_SQL,
  trafficOf,
  trafficRow,
  type TrafficBounds,
  type TrafficSoFar,
} from '../traffic-rows';
import type { WireStore } from '../wire-store';
import { inTransaction } from './pool';

interface WireRow {
  n: number;
  body: string | null;
  omitted: string | null;
}

/** The wire of each run on Postgres, as lib/store/sqlite-wire-store.ts. */
export function createPostgresWireStore({
  pool,
  release,
}: {
  pool: pg.Pool;
  release: () => Promise<void>;
}): WireStore {
  return {
    async keepWire({
      runId,
      exchange,
      maxBytes = MAX_WIRE_BYTES_PER_RUN,
    }: {
      runId: string;
      exchange: WireExchange;
      maxBytes?: number;
    }): Promise<void> {
      const body = JSON.stringify(exchange);
      const bytes = Buffer.byteLength(body);
      // The bytes kept so far read and the request written in one transaction, under a lock on
      // the run: two requests of one run kept at once never both fit past its bound.
      await inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('run_wire:' || $1))", [runId]);
        const before = (
          await client.query<{ bytes: number }>(
            'SELECT COALESCE(SUM(bytes), 0) AS bytes FROM run_wire WHERE run_id = $1',
            [runId],
          )
        ).rows[0]!.bytes;
        const fits = before + bytes <= maxBytes;
        await client.query(
          `INSERT INTO run_wire (run_id, n, bytes, body, omitted) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (run_id, n) DO UPDATE SET bytes = excluded.bytes, body = excluded.body, omitted = excluded.omitted`,
          [
            runId,
            exchange.n,
            fits ? bytes : 0,
            fits ? body : null,
            fits
              ? null
              : `not kept: this run's wire reached its bound of ${sizeWords(maxBytes)} before request ${exchange.n} (${sizeWords(bytes)}) ended`,
          ],
        );
      });
    },
    async readWire(runId: string, n?: number): Promise<StoredWire[]> {
      const rows = (
        n === undefined
          ? await pool.query<WireRow>('SELECT n, body, omitted FROM run_wire WHERE run_id = $1 ORDER BY n', [
              runId,
            ])
          : await pool.query<WireRow>('SELECT n, body, omitted FROM run_wire WHERE run_id = $1 AND n = $2', [
              runId,
              n,
            ])
      ).rows;
      return rows.map((row): StoredWire => ({
        n: row.n,
        ...(row.body !== null ? { exchange: JSON.parse(row.body) as WireExchange } : {}),
        ...(row.omitted !== null ? { omitted: row.omitted } : {}),
      }));
    },
    async keepTraffic({
      runId,
      exchange,
      bounds,
    }: {
      runId: string;
      exchange: CassetteExchange;
      bounds: TrafficBounds;
    }): Promise<void> {
      // Read and written under a lock on the run, as the wire: two exchanges never both fit past the bounds.
      await inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('run_traffic:' || $1))", [runId]);
        const so = (
          await client.query<Record<keyof TrafficSoFar, string>>(`${TRAFFIC_SO_FAR_SQL}$1`, [runId])
        ).rows[0]!;
        const row = trafficRow(
          exchange,
          { count: Number(so.count), bytes: Number(so.bytes), cut: Number(so.cut) },
          bounds,
        );
        await client.query(
          `INSERT INTO run_traffic (run_id, n, bytes, body) VALUES ($1, $2, $3, $4)
           ON CONFLICT (run_id, n) DO UPDATE SET bytes = excluded.bytes, body = excluded.body`,
          [runId, row.n, row.bytes, row.body],
        );
      });
    },
    async readTraffic(runId: string): Promise<{ exchanges: CassetteExchange[]; truncated: boolean }> {
      const rows = (
        await pool.query<{ body: string | null }>(
          'SELECT body FROM run_traffic WHERE run_id = $1 ORDER BY n',
          [runId],
        )
      ).rows;
      return trafficOf(rows);
    },
    close: release,
  };
}
