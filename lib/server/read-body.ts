import 'server-only';
import { HttpError } from './http-error';

/** Past this a body is refused before it is read into memory twice. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function readText({ request, maxBytes = MAX_BODY_BYTES }: { request: Request; maxBytes?: number }): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    throw new HttpError(413, `The request body is ${declared} bytes; the limit is ${maxBytes} bytes`);
  }
  const text = await request.text();
  if (text.length > maxBytes) {
    throw new HttpError(413, `The request body is over the limit of ${maxBytes} bytes`);
  }
  return text;
}

/** Reads a JSON body, or fails with a 400 that says the body is not JSON and why. */
export async function readJson({ request }: { request: Request }): Promise<unknown> {
  const text = await readText({ request });
  if (text.trim() === '') throw new HttpError(400, 'The request body is empty; send a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
}
