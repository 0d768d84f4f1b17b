/**
 * The HTTP API's request and response shapes, one zod schema each: route handlers answer with
 * these types and the browser parses every response with them (lib/client/api/client.ts). A new
 * endpoint adds its shapes here, in the file of its resource.
 */
export * from './error-body';
export * from './api-key';
export * from './runs';
export * from './control';
export * from './scenarios';
export * from './sweeps';
export * from './prompt-sets';
export * from './compare';
export * from './parse-response';
export * from './lessons';
export * from './cassettes';
export * from './run-view';
export * from './room';
export * from './wire';
export * from './tasks';
