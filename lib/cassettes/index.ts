/** Cassettes: a run's model traffic recorded beneath the SDK, and replayed as a vendor. */
export { recordExchanges, recordWire, type RecordExchangesOptions, type RecordWireOptions } from './record-exchanges';
export { createCassettePlayer, type CassettePlayerOptions, type OffRecordingReport } from './cassette-player';
export { fingerprint, describeDifference, whatMatters } from './what-matters';
export { buildCassette, createExchangeKeeper, missingConfig, parseCassette, CassetteFileError, MAX_CASSETTE_BYTES } from './cassette-file';
export { redactPieces, MIN_PIECE } from './redact-pieces';
