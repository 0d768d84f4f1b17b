import 'server-only';
export { HttpError, RoomLimitError } from './http-error';
export { errorResponse, jsonError, type ErrorBody } from './error-response';
export { jsonResponse } from './json-response';
export { readJson, readText, describeLimit, MAX_BODY_BYTES, MAX_JSON_BYTES } from './read-body';
export { refuseCrossSite, type RefuseCrossSiteOptions } from './refuse-cross-site';
export { knownKeysRedactor, learnRequestKeys, requestKeys, REMEMBERED_REQUEST_KEYS } from './request-keys';
export * from './run-registry';
export { getRunRegistry, getRunTraffic, unwatchedMs } from './get-run-registry';
export { createRunTraffic, type RunTraffic } from './run-traffic';
export { findCassette, listAllCassettes, SHIPPED_PREFIX } from './cassette-library';
export {
  createSseResponse,
  encodeSseEvent,
  SSE_HEADERS,
  HEARTBEAT_MS,
  type SseResponseOptions,
} from './sse-response';
export { resumePoint } from './resume-point';
export {
  createSweepRegistry,
  type SweepRegistry,
  type SweepListener,
  type SweepRegistryOptions,
} from './sweep-registry';
export { getSweepRegistry } from './get-sweep-registry';
export { createSweepSseResponse } from './sweep-sse-response';
export { resolveFork, forkProblem } from './resolve-fork';
export { createComparisonCache, comparisonCacheOf, type ComparisonCache } from './comparison-cache';
export {
  createFinishedRunViews,
  getFinishedRunViews,
  type FinishedRunView,
  type FinishedRunViews,
} from './finished-run-views';
export { roomMode, JOIN_HINT, ROOM_COOKIE } from './room-session';
export { createShare, revokeShares, sharedRunId } from './room-shares';
export {
  boardNow,
  followNotices,
  noteLessonPlay,
  onBoardChange,
  requireMember,
  requireTeacher,
  sendNotice,
  tallyLessons,
} from './room-board';
export { createSseStream } from './sse-stream';
export {
  requestVisitor,
  joinRoom,
  ownedBy,
  visibleRuns,
  visiblePromptSets,
  visibleCassette,
  requestOwnsRun,
  requestOwnsSweep,
  claimFor,
  ownRows,
} from './room-ownership';
export { admitRuns, admitSweep } from './room-limits';
export { ownedPost, visitorList, visitorPost, type IdContext, type OwnedPost } from './route-handlers';
export { cassetteList, pickLists, promptSetList, scenarioList, type PickLists } from './pick-lists';
export { checkTaskUpload, MAX_TASK_UPLOAD_BYTES, taskList, uploadTask } from './task-uploads';
