import { PromptSetListSchema, PromptSetSchema, SavePromptSetBodySchema } from '@/lib/protocol/http';
import {
  claimFor,
  HttpError,
  jsonResponse,
  knownKeysRedactor,
  promptSetList,
  visitorList,
  visitorPost,
} from '@/lib/server';
import { getPromptSetStore, promptSetKey } from '@/lib/store';
import { TOOL_NAMES } from '@/lib/tools';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Every version of every prompt set, newest first (PromptSetListSchema). */
export async function GET(request?: Request): Promise<Response> {
  // Room mode: the visitor's own.
  return visitorList(request, PromptSetListSchema, promptSetList);
}

/**
 * Saves a prompt set as the next version of its name: 201 with the stored set (PromptSetSchema).
 * Every key the server knows (its environment's, and each one a request has sent it) is taken
 * out of its texts first, as from a run's log, so a system prompt that quotes one stores `[redacted]`.
 */
export async function POST(request: Request): Promise<Response> {
  return visitorPost({ request }, async ({ visitor, raw }) => {
    // Read the names as sent: a key such as "__proto__" would not survive parsing into an object.
    const described = (raw as { toolDescriptions?: unknown } | null)?.toolDescriptions;
    const names =
      typeof described === 'object' && described !== null && !Array.isArray(described)
        ? Object.keys(described)
        : [];
    const unknown = names.filter((name) => !(TOOL_NAMES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      throw new HttpError(
        400,
        'The prompt set names tools that do not exist',
        unknown.map(
          (n) => `toolDescriptions.${n.slice(0, 80)}: no such tool; the tools are ${TOOL_NAMES.join(', ')}`,
        ),
      );
    }
    const body = SavePromptSetBodySchema.parse(knownKeysRedactor().value(raw), { reportInput: true });
    const saved = await getPromptSetStore().savePromptSet(body);
    await claimFor(visitor, 'prompt_set', promptSetKey(saved.name, saved.version));
    return jsonResponse(PromptSetSchema, saved, { status: 201 });
  });
}
