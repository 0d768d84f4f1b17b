import { LESSONS, lessonBySlug } from '@/lib/lessons';
import {
  lessonParentConfig,
  lessonPlayClock,
  lessonSideRun,
  type LessonParent,
} from '@/lib/runtime/lesson-sides';
import { PlayedLessonSchema, PlayLessonBodySchema } from '@/lib/protocol/http';
import {
  admitRuns,
  claimFor,
  errorResponse,
  getRunRegistry,
  HttpError,
  jsonResponse,
  noteLessonPlay,
  readJson,
  refuseCrossSite,
  requestVisitor,
} from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Plays a lesson: both runs start together on the paced clock (same seed; mechanism on / off):
 * each is its virtual-clock run event for event, shown at the lesson's time scale, so the waits,
 * counts and outcomes its text quotes are the ones on screen however busy the machine is.
 * A forked lesson first makes its parent run on the virtual clock and stores it; both sides are
 * forks of it.
 */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ slug: string }> },
): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { slug } = await params;
    const lesson = lessonBySlug(slug);
    if (!lesson)
      throw new HttpError(404, `No lesson "${slug}"`, [`lessons: ${LESSONS.map((l) => l.slug).join(', ')}`]);
    const body = PlayLessonBodySchema.parse(await readJson({ request }), { reportInput: true });
    const clock = lessonPlayClock(lesson, body.timeScale);
    const registry = getRunRegistry();
    // Room mode: the lesson's runs are the visitor's, and count against their fair share.
    const visitor = await requestVisitor(request);
    const { on, off, parent } = await admitRuns(visitor, lesson.fork ? 3 : 2, async () => {
      const parent = lesson.fork ? await makeParent(lessonParentConfig(lesson), visitor) : undefined;
      const start = async (side: 'on' | 'off') => {
        const { config, fork } = lessonSideRun({ lesson, side, clock, ...(parent ? { parent } : {}) });
        const { id } = await registry.startRun({ config, ...(fork ? { fork } : {}) });
        await claimFor(visitor, 'run', id);
        return id;
      };
      return { on: await start('on'), off: await start('off'), parent };
    });
    // Room mode: the teacher's board tallies the lesson from these two runs.
    if (visitor !== null) await noteLessonPlay({ slug, on, off, visitor });
    return jsonResponse(
      PlayedLessonSchema,
      { slug, on, off, timeScale: clock.timeScale, ...(parent ? { parent: parent.runId } : {}) },
      { status: 201 },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

/** A forked lesson's parent: run to its end like any run, stored, and read back as a fork reads it. */
async function makeParent(config: LessonParent['config'], visitor: string | null): Promise<LessonParent> {
  const registry = getRunRegistry();
  const { id } = await registry.startRun({ config });
  await claimFor(visitor, 'run', id);
  await registry.whenFinished(id);
  const record = await getStore().getRun(id);
  if (!record)
    throw new HttpError(500, 'The lesson could not make its parent run', [`run ${id} was not stored`]);
  return { runId: id, config: record.config, events: await getStore().readEvents({ runId: id }) };
}
