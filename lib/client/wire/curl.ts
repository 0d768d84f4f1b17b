import type { SentBody } from '@/lib/protocol';

/**
 * A request body as a curl command a person can paste: the endpoint it went to, the headers its
 * dialect needs with the key as an environment variable (never a key), the body as sent in a
 * quoted here-document (nothing in it is expanded). A body the event did not keep gives none.
 */
export function curlFor(sent: SentBody): string | undefined {
  if (sent.body === undefined) return undefined;
  const url = sent.url ?? '<the vendor’s endpoint>';
  const anthropic = /\/v1\/messages$/.test(url);
  const keyVar = keyVariable(sent.vendor);
  const headers = anthropic
    ? [`x-api-key: $${keyVar}`, 'anthropic-version: 2023-06-01', 'content-type: application/json']
    : [`authorization: Bearer $${keyVar}`, 'content-type: application/json'];
  const json = JSON.stringify(sent.body, null, 2);
  let fence = 'JSON';
  while (json.includes(fence)) fence = `${fence}_`;
  return [`curl ${quote(url)} \\`, ...headers.map((h) => `  -H "${h}" \\`), `  --data-binary @- <<'${fence}'`, json, fence].join('\n');
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
