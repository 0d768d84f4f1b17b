export * from './run-store';
export { createSqliteRunStore, DB_FILE_NAME, type SqliteRunStoreOptions } from './sqlite-run-store';
export { getStore, dataDir } from './get-store';
export {
  toJsonl,
  exportRunJsonl,
  parseJsonl,
  importJsonl,
  type ParsedTrace,
  type ImportResult,
  type ExportRunOptions,
  type ParseJsonlOptions,
  type ImportJsonlOptions,
} from './jsonl';
