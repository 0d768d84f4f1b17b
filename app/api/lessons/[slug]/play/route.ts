import { LESSONS, lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { RunConfigSchema } from '@/lib/protocol';
import { PlayedLessonSchema, PlayLessonBodySchema } from '@/lib/protocol/http';
import { errorResponse, getRunRegistry, HttpError, jsonResponse, readJson, refuseCrossSite } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Plays a lesson: both runs start together on the real clock (same seed; mechanism on / off). */
export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { slug } = await params;
    const lesson = lessonBySlug(slug);
    if (!lesson) throw new HttpError(404, `No lesson "${slug}"`, [`lessons: ${LESSONS.map((l) => l.slug).join(', ')}`]);
    const body = PlayLessonBodySchema.parse(await readJson({ request }));
    const timeScale = body.timeScale ?? lesson.timeScale;
    const registry = getRunRegistry();
    const start = (side: 'on' | 'off') => registry.startRun({ config: RunConfigSchema.parse(lessonRunConfig(lesson, side, { clock: 'real', timeScale })) }).id;
    const on = start('on');
    const off = start('off');
    return jsonResponse(PlayedLessonSchema, { slug, on, off, timeScale }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
