import 'server-only';
export { HttpError } from './http-error';
export { errorResponse, jsonError, type ErrorBody } from './error-response';
export { readJson, readText, MAX_BODY_BYTES } from './read-body';
export { refuseCrossSite, type RefuseCrossSiteOptions } from './refuse-cross-site';
export * from './run-registry';
export { getRunRegistry, unwatchedMs } from './get-run-registry';
export { createSseResponse, encodeSseEvent, SSE_HEADERS, HEARTBEAT_MS, type SseResponseOptions } from './sse-response';
export { resumePoint } from './resume-point';
