import { SENT_BODY_MAX_CHARS, type SentBody } from '@/lib/protocol';

/**
 * A request body as an adapter sent it, for a takeover event: kept whole up to
 * SENT_BODY_MAX_CHARS of JSON, else only its size (what the store keeps stays bounded).
 */
export function sentBody(input: {
  vendor: string;
  model: string;
  url: string | undefined;
  body: unknown;
}): SentBody {
  const { vendor, model, url, body } = input;
  const chars = JSON.stringify(body)?.length ?? 0;
  const at = { vendor, model, ...(url !== undefined ? { url } : {}), chars };
  if (chars > SENT_BODY_MAX_CHARS) {
    return {
      ...at,
      omitted: `${chars.toLocaleString('en-US')} characters of JSON, over the ${SENT_BODY_MAX_CHARS.toLocaleString('en-US')} a takeover event keeps`,
    };
  }
  return { ...at, body };
}
