/**
 * What the run page's first request needs to read its answer (GET /api/runs/{id}/view): the
 * view's schema, the error body and the parser, without the other resources' schemas (and the
 * event union they build at load), which the page's later requests load.
 */
export { finishedRunViewSchema } from './run-view';
export { ErrorBodySchema } from './error-body';
export { parseResponse, ResponseShapeError } from './parse-response';
