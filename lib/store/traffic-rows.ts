import type { CassetteExchange } from '@/lib/protocol';

/** How much of a run's model traffic the store keeps: the exchanges' JSON bytes and their count. */
export interface TrafficBounds {
  maxBytes: number;
  maxExchanges: number;
}

/** What the store holds of a run's traffic so far: its rows, their bytes, and how many were kept by number only. */
export interface TrafficSoFar {
  count: number;
  bytes: number;
  cut: number;
}

/** A run_traffic row: the exchange as JSON, or no body once the run's traffic passed its bounds. */
export interface TrafficRow {
  n: number;
  bytes: number;
  body: string | null;
}

/**
 * The row that keeps one exchange: its JSON when the run's traffic so far leaves room for it,
 * else its number alone, and so is every later one (the recording is cut there, as a cassette
 * kept in memory stops at its bounds: lib/cassettes/cassette-file.ts createExchangeKeeper).
 */
export function trafficRow(
  exchange: CassetteExchange,
  before: TrafficSoFar,
  bounds: TrafficBounds,
): TrafficRow {
  const body = JSON.stringify(exchange);
  const bytes = Buffer.byteLength(body);
  const fits =
    before.cut === 0 && before.count < bounds.maxExchanges && before.bytes + bytes <= bounds.maxBytes;
  return { n: exchange.n, bytes: fits ? bytes : 0, body: fits ? body : null };
}

/** A run's kept traffic from its rows in request order: the exchanges kept, and whether any was not. */
export function trafficOf(rows: readonly Pick<TrafficRow, 'body'>[]): {
  exchanges: CassetteExchange[];
  truncated: boolean;
} {
  return {
    exchanges: rows.flatMap((row) => (row.body === null ? [] : [JSON.parse(row.body) as CassetteExchange])),
    truncated: rows.some((row) => row.body === null),
  };
}

/** The SQL that reads a run's traffic so far (both dialects). */
export const TRAFFIC_SO_FAR_SQL =
  'SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes, COUNT(*) - COUNT(body) AS cut FROM run_traffic WHERE run_id = ';
