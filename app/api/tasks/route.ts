import { TaskListSchema, UploadedTaskSchema } from '@/lib/protocol/http';
import {
  errorResponse,
  jsonResponse,
  MAX_TASK_UPLOAD_BYTES,
  readJson,
  refuseCrossSite,
  requestVisitor,
  taskList,
  uploadTask,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The built-in tasks and the uploaded ones (room mode: the visitor's own), TaskListSchema. */
export async function GET(request?: Request): Promise<Response> {
  try {
    const visitor = await requestVisitor(request);
    return jsonResponse(TaskListSchema, await taskList(visitor));
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Uploads a task folder as its files ({ name, files: { path: text } }, docs/tasks.md): 201 with
 * the kept upload (UploadedTaskSchema), or 400 naming each field or file to fix.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const visitor = await requestVisitor(request);
    const raw = await readJson({ request, maxBytes: MAX_TASK_UPLOAD_BYTES });
    return jsonResponse(UploadedTaskSchema, await uploadTask(visitor, raw), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
