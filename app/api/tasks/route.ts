import { TaskListSchema, UploadedTaskSchema } from '@/lib/protocol/http';
import {
  jsonResponse,
  MAX_TASK_UPLOAD_BYTES,
  taskList,
  uploadTask,
  visitorList,
  visitorPost,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The built-in tasks and the uploaded ones (room mode: the visitor's own), TaskListSchema. */
export async function GET(request?: Request): Promise<Response> {
  return visitorList(request, TaskListSchema, taskList);
}

/**
 * Uploads a task folder as its files ({ name, files: { path: text } }, docs/tasks.md): 201 with
 * the kept upload (UploadedTaskSchema), or 400 naming each field or file to fix.
 */
export async function POST(request: Request): Promise<Response> {
  return visitorPost({ request, maxBytes: MAX_TASK_UPLOAD_BYTES }, async ({ visitor, raw }) =>
    jsonResponse(UploadedTaskSchema, await uploadTask(visitor, raw), { status: 201 }),
  );
}
