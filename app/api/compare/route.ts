import { NotComparableError } from '@/lib/compare/compare-runs';
import { LESSONS, lessonBySlug } from '@/lib/lessons';
import { ComparisonSchema, CompareQuerySchema } from '@/lib/protocol/http';
import {
  comparisonCacheOf,
  errorResponse,
  getRunRegistry,
  HttpError,
  jsonResponse,
  requestVisitor,
  visibleRuns,
} from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** How long the comparison waits for a just-started run's first event before answering without it. */
const FIRST_EVENT_WAIT_MS = 15_000;

/** Two runs side by side (a Comparison, lib/protocol/http/compare.ts), from their logs as they stand now; `lesson`: judged by that lesson's measure. */
export async function GET(request: Request): Promise<Response> {
  try {
    const {
      a,
      b,
      lesson: slug,
    } = CompareQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const lesson = slug === undefined ? undefined : lessonBySlug(slug);
    if (slug !== undefined && !lesson)
      throw new HttpError(404, `No lesson "${slug}" (?lesson=)`, [
        `lessons: ${LESSONS.map((l) => l.slug).join(', ')}`,
      ]);
    const visitor = await requestVisitor(request);
    const store = getStore();
    for (const [side, id] of [
      ['a', a],
      ['b', b],
    ] as const) {
      // Room mode: another visitor's run is answered as a missing one is.
      if (!(await visibleRuns(visitor, store).getRun(id)))
        throw new HttpError(404, `No run with id "${id}" (?${side}=): pick a run from the runs list`);
      // A run started a moment ago may still be starting (on its run thread): wait for its first event.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        getRunRegistry().whenLogged(id),
        new Promise((resolve) => (timer = setTimeout(resolve, FIRST_EVENT_WAIT_MS))),
      ]);
      clearTimeout(timer);
    }
    try {
      // A live side is asked for again after each burst of its events: only what is new is read and folded.
      // A lesson's pair is judged by what "better" means for that lesson.
      const comparison = await comparisonCacheOf(store).compare(a, b, { criterion: lesson?.criterion });
      return jsonResponse(ComparisonSchema, comparison);
    } catch (error) {
      if (error instanceof NotComparableError) throw new HttpError(409, error.message);
      throw error;
    }
  } catch (error) {
    return errorResponse(error);
  }
}
