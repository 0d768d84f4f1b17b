export * from './run-store';
export { eventPages, EVENT_PAGE } from './event-pages';
export { encodeLog, type EncodedLog } from './encoded-log';
export { createSqliteRunStore, DB_FILE_NAME, type SqliteRunStoreOptions } from './sqlite-run-store';
export {
  getStore,
  getSweepStore,
  getPromptSetStore,
  getCassetteStore,
  getVisitorStore,
  getWireStore,
  getTaskUploadStore,
  dataDir,
} from './get-store';
export {
  toJsonl,
  exportRunJsonl,
  runJsonlStream,
  parseJsonl,
  importJsonl,
  type ParsedTrace,
  type ImportResult,
  type ExportRunOptions,
  type ParseJsonlOptions,
  type ImportJsonlOptions,
} from './jsonl';
export type {
  SweepStore,
  SweepRecord,
  CreateSweepOptions,
  UpdateSweepOptions,
  ClosedSweep,
} from './sweep-store';
export { INTERRUPTED_SWEEP_MESSAGE } from './sweep-store';
export { createSqliteSweepStore } from './sqlite-sweep-store';
export { checkPromptSetRef, type PromptSetStore } from './prompt-set-store';
export { createSqlitePromptSetStore } from './sqlite-prompt-set-store';
export type { CassetteStore } from './cassette-store';
export { createSqliteCassetteStore } from './sqlite-cassette-store';
export { promptSetKey, type LessonPlay, type OwnedKind, type VisitorStore } from './visitor-store';
export { createSqliteVisitorStore } from './sqlite-visitor-store';
export type { WireStore } from './wire-store';
export { createSqliteWireStore } from './sqlite-wire-store';
export type { TaskUploadStore, SaveTaskUpload } from './task-upload-store';
export { createSqliteTaskUploadStore, keepFiles } from './sqlite-task-upload-store';
export { uploadedTaskDir } from './data-dir';
export {
  openPostgresStores,
  describeUrl,
  type PostgresStores,
  type OpenPostgresStoresOptions,
} from './postgres';
export { getPostgresStores, postgresStoresWhenOpen, closePostgresStores } from './get-postgres-stores';
