import type { SentBody } from '@/lib/protocol';
import { asVendor, dialectOf } from '@/lib/protocol/vendors';

/**
 * A request body as a curl command a person can paste: the endpoint it went to, the headers its
 * dialect needs with the key as an environment variable (never a key), the body as sent in a
 * quoted here-document (nothing in it is expanded). A body the event did not keep, or one whose
 * endpoint it did not record, gives none: a command that cannot be run as it is is not offered.
 */
export function curlFor(sent: SentBody): string | undefined {
  if (sent.body === undefined || sent.url === undefined) return undefined;
  const keyVar = keyVariable(sent.vendor);
  const headers = speaksAnthropic(sent)
    ? [`x-api-key: $${keyVar}`, 'anthropic-version: 2023-06-01', 'content-type: application/json']
    : [`authorization: Bearer $${keyVar}`, 'content-type: application/json'];
  const json = JSON.stringify(sent.body, null, 2);
  let fence = 'JSON';
  while (json.includes(fence)) fence = `${fence}_`;
  return [
    `curl ${quote(sent.url)} \\`,
    ...headers.map((h) => `  -H "${h}" \\`),
    `  --data-binary @- <<'${fence}'`,
    json,
    fence,
  ].join('\n');
}

/** Why a sent body offers no curl command (undefined: it offers one). */
export function noCurlReason(sent: SentBody): string | undefined {
  if (sent.body === undefined) return `the body was not kept (${sent.omitted ?? 'no reason recorded'})`;
  if (sent.url === undefined) return 'the run did not record the endpoint this body went to';
  return undefined;
}

/** The dialect by the vendor the body went to; a vendor this build does not know, by the path it went to. */
function speaksAnthropic(sent: SentBody): boolean {
  const vendor = asVendor(sent.vendor);
  return vendor ? dialectOf(vendor) === 'anthropic' : /\/v1\/messages$/.test(sent.url ?? '');
}

/** The environment variable a vendor's key lives in, by the vendor's name. */
function keyVariable(vendor: string): string {
  if (vendor.includes('anthropic')) return 'ANTHROPIC_API_KEY';
  if (vendor.includes('deepseek')) return 'DEEPSEEK_API_KEY';
  return 'OPENAI_API_KEY';
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
