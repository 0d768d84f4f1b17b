import { listScenarios } from '@/lib/tools';
import { errorResponse } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The scenarios a run can use, for pickers: an array of { id, title, summary, task } (no files, no check code). */
export async function GET(): Promise<Response> {
  try {
    const scenarios = listScenarios().map(({ id, title, summary, task }) => ({ id, title, summary, task }));
    return Response.json(scenarios);
  } catch (error) {
    return errorResponse(error);
  }
}
