import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MAX_WIRE_BYTES_PER_RUN, type StoredWire, type WireExchange } from '@/lib/protocol';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate } from './sqlite-schema';
import { TRAFFIC_SO_FAR_SQL, trafficOf, trafficRow, type TrafficSoFar } from './traffic-rows';
import type { WireStore } from './wire-store';

interface WireRow {
  n: number;
  body: string | null;
  omitted: string | null;
}

/** The wire of each run on the run store's SQLite file (its own connection, as the cassettes). */
export function createSqliteWireStore({ dir }: { dir: string }): WireStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const used = db.prepare<[string], { bytes: number }>(
    'SELECT coalesce(sum(bytes), 0) AS bytes FROM run_wire WHERE run_id = ?',
  );
  const insert = db.prepare(
    `INSERT OR REPLACE INTO run_wire (run_id, n, bytes, body, omitted) VALUES (@run_id, @n, @bytes, @body, @omitted)`,
  );
  const select = db.prepare<[string], WireRow>(
    'SELECT n, body, omitted FROM run_wire WHERE run_id = ? ORDER BY n',
  );
  const selectOne = db.prepare<[string, number], WireRow>(
    'SELECT n, body, omitted FROM run_wire WHERE run_id = ? AND n = ?',
  );
  const keep = db.transaction((runId: string, exchange: WireExchange, maxBytes: number) => {
    const body = JSON.stringify(exchange);
    const bytes = Buffer.byteLength(body);
    const before = used.get(runId)?.bytes ?? 0;
    const fits = before + bytes <= maxBytes;
    insert.run({
      run_id: runId,
      n: exchange.n,
      bytes: fits ? bytes : 0,
      body: fits ? body : null,
      omitted: fits
        ? null
        : `not kept: this run's wire reached its bound of ${sizeWords(maxBytes)} before request ${exchange.n} (${sizeWords(bytes)}) ended`,
    });
  });
  const trafficSoFar = db.prepare<[string], TrafficSoFar>(`${TRAFFIC_SO_FAR_SQL}?`);
  const insertTraffic = db.prepare(
    'INSERT OR REPLACE INTO run_traffic (run_id, n, bytes, body) VALUES (@run_id, @n, @bytes, @body)',
  );
  const selectTraffic = db.prepare<[string], { body: string | null }>(
    'SELECT body FROM run_traffic WHERE run_id = ? ORDER BY n',
  );
  return {
    async keepWire({ runId, exchange, maxBytes = MAX_WIRE_BYTES_PER_RUN }) {
      keep(runId, exchange, maxBytes);
    },
    async keepTraffic({ runId, exchange, bounds }) {
      db.transaction(() => {
        insertTraffic.run({ run_id: runId, ...trafficRow(exchange, trafficSoFar.get(runId)!, bounds) });
      })();
    },
    readTraffic: async (runId) => trafficOf(selectTraffic.all(runId)),
    async readWire(runId, n) {
      return (n === undefined ? select.all(runId) : selectOne.all(runId, n)).map((row): StoredWire => ({
        n: row.n,
        ...(row.body !== null ? { exchange: JSON.parse(row.body) as WireExchange } : {}),
        ...(row.omitted !== null ? { omitted: row.omitted } : {}),
      }));
    },
    close: async () => {
      db.close();
    },
  };
}

export function sizeWords(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
