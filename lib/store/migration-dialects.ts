import type { Migration } from './migrations';

/**
 * What a table definition's two dialects spell differently (lib/store/migrations.ts): Postgres
 * needs BIGINT for epoch-ms and token columns (its INTEGER is 32 bits), DOUBLE PRECISION for
 * SQLite's REAL (its REAL is 32 bits), `::jsonb ->>` for `json_extract`, a `rowid` identity column
 * where SQLite gives an implicit one that queries order by, and has no WITHOUT ROWID. These words
 * spell migrations that have shipped: changing one would change what they do on a new database.
 */
export interface DialectWords {
  big: string;
  real: string;
  /** The `rowid` column's line (with its line break before it), or nothing. */
  rowid: string;
  withoutRowid: string;
  /** A JSON text column's top-level field, as text. */
  jsonField: (column: string, key: string) => string;
}

const SQLITE: DialectWords = {
  big: 'INTEGER',
  real: 'REAL',
  rowid: '',
  withoutRowid: ' WITHOUT ROWID',
  jsonField: (column, key) => `json_extract(${column}, '$.${key}')`,
};

const POSTGRES: DialectWords = {
  big: 'BIGINT',
  real: 'DOUBLE PRECISION',
  rowid: '\n    rowid BIGINT GENERATED ALWAYS AS IDENTITY,',
  withoutRowid: '',
  jsonField: (column, key) => `${column}::jsonb ->> '${key}'`,
};

/** A migration whose two dialects differ only in DialectWords: written once, spelled for each. */
export function inBothDialects(sql: (w: DialectWords) => string): Migration {
  return { sqlite: sql(SQLITE), postgres: sql(POSTGRES) };
}
