import 'server-only';
import type { z } from 'zod';
import { errorResponse } from './error-response';
import { jsonResponse } from './json-response';
import { readJson } from './read-body';
import { refuseCrossSite } from './refuse-cross-site';
import { requestOwnsRun, requestOwnsSweep, requestVisitor } from './room-ownership';

/**
 * The checks the app/api routes share, each in the order every such route made them, with
 * whatever the route throws answered as errorResponse says (HttpError as it says, a zod error a
 * 400 naming each bad field, anything else a 500).
 */

/** The context Next hands a route under an `[id]` folder. */
export interface IdContext {
  params: Promise<{ id: string }>;
}

/** What a POST on one run or sweep is handed once its request has passed the checks. */
export interface OwnedPost<Body> {
  id: string;
  /** The request's visitor (null outside room mode). */
  visitor: string | null;
  body: Body;
}

/**
 * A POST on one run or sweep (`/api/runs/:id/…`, `/api/sweeps/:id/…`): a cross-site request
 * refused, the request's visitor checked as the row's maker (room mode: another visitor's is
 * answered as a missing one is), the JSON body parsed by `schema`, then `handle`.
 */
export async function ownedPost<S extends z.ZodType>(
  options: { request: Request; context: IdContext; kind: 'run' | 'sweep'; schema: S },
  handle: (post: OwnedPost<z.output<S>>) => Promise<Response>,
): Promise<Response> {
  const { request, context, kind, schema } = options;
  try {
    refuseCrossSite({ request });
    const { id } = await context.params;
    const visitor = kind === 'run' ? await requestOwnsRun(request, id) : await requestOwnsSweep(request, id);
    const body = schema.parse(await readJson({ request }), { reportInput: true });
    return await handle({ id, visitor, body });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * A POST that stores something of the visitor's: a cross-site request refused, the visitor read
 * (401 in room mode without a session), the JSON body (up to `maxBytes`) handed to `handle` as
 * sent, for it to check.
 */
export async function visitorPost(
  options: { request: Request; maxBytes?: number },
  handle: (post: { visitor: string | null; raw: unknown }) => Promise<Response>,
): Promise<Response> {
  const { request, maxBytes } = options;
  try {
    refuseCrossSite({ request });
    const visitor = await requestVisitor(request);
    const raw = await readJson({ request, ...(maxBytes !== undefined ? { maxBytes } : {}) });
    return await handle({ visitor, raw });
  } catch (error) {
    return errorResponse(error);
  }
}

/** A GET of a list as `schema` says: the visitor's own in room mode, everything outside it. */
export async function visitorList<S extends z.ZodType>(
  request: Request | undefined,
  schema: S,
  list: (visitor: string | null) => Promise<z.output<S>>,
): Promise<Response> {
  try {
    const visitor = await requestVisitor(request);
    return jsonResponse(schema, await list(visitor));
  } catch (error) {
    return errorResponse(error);
  }
}
