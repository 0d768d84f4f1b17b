import { WIRE_KEY_PLACEHOLDER, type WireExchange } from '@/lib/protocol/wire';
import { asVendor, isSimulated, vendorRow } from '@/lib/protocol/vendors';

/**
 * One request of a run's wire as something a person can run again, each with the key read from
 * an environment variable (never the key: the wire keeps a placeholder for it): the curl command
 * of the exact request (every header the SDK sent, the body byte for byte), and the SDK call that
 * sends the same body, in TypeScript and in Python.
 */

/** The local port `npm run sim:serve` listens on unless told otherwise (lib/cli/sim-serve-main.ts). */
export const SIM_SERVE_PORT = 4010;

/** Headers a curl command leaves to curl: the length (the here-document adds a newline) and the connection's own. */
const CURL_SKIPS = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'transfer-encoding']);

/** The environment variable the vendor's key is read from. */
export function keyVariableOf(exchange: Pick<WireExchange, 'vendor' | 'dialect'>): string {
  const vendor = asVendor(exchange.vendor);
  const keyVar = vendor ? vendorRow(vendor).keyVar : undefined;
  if (keyVar) return keyVar;
  if (exchange.vendor.includes('deepseek')) return 'DEEPSEEK_API_KEY';
  return exchange.dialect === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

/** A simulated vendor's host never resolves: its requests run against `npm run sim:serve`, as a proxy. */
function simulatedNote(exchange: WireExchange): string[] {
  const vendor = asVendor(exchange.vendor);
  if (!vendor || !isSimulated(vendor)) return [];
  return [
    `# ${new URL(exchange.request.url).host} is Loop Lab's simulated ${exchange.vendor}: serve it with`,
    `# \`npm run sim:serve\` and run this with http_proxy=http://127.0.0.1:${SIM_SERVE_PORT} set.`,
  ];
}

/** The exact request as a curl command: method, URL, every header the SDK sent (the key from the environment), the body as sent. */
export function wireCurl(exchange: WireExchange): string {
  const { request } = exchange;
  const keyVar = keyVariableOf(exchange);
  const headers = Object.entries(request.headers)
    .filter(([name]) => !CURL_SKIPS.has(name))
    .map(([name, value]) =>
      value.includes(WIRE_KEY_PLACEHOLDER)
        ? `  -H "${name}: ${value.replace(WIRE_KEY_PLACEHOLDER, `$${keyVar}`).replace(/["\\`]/g, '\\$&')}" \\`
        : `  -H ${shellQuote(`${name}: ${value}`)} \\`,
    );
  let fence = 'BODY';
  while (request.body.split('\n').includes(fence)) fence = `${fence}_`;
  const command = [`curl -sS --no-buffer -X ${request.method} ${shellQuote(request.url)} \\`, ...headers];
  if (request.body) command.push(`  --data-binary @- <<'${fence}'`, request.body, fence);
  else command.push(command.pop()!.replace(/ \\$/, ''));
  return [...simulatedNote(exchange), ...command].join('\n');
}

interface SdkCall {
  /** The SDK's base URL: the request's URL without the endpoint's path. */
  baseUrl: string;
  /** The method that sends the endpoint's request, on the client. */
  method: string;
  body: Record<string, unknown>;
  stream: boolean;
}

/** The SDK call that sends this body, or why there is none (a body that is not a JSON object, an endpoint no SDK method sends). */
export function sdkCallOf(exchange: WireExchange): SdkCall | { none: string } {
  const url = exchange.request.url.replace(/[?#].*$/, '');
  const endpoint = [
    { suffix: '/v1/messages', method: 'messages.create' },
    { suffix: '/chat/completions', method: 'chat.completions.create' },
    { suffix: '/responses', method: 'responses.create' },
  ].find((e) => url.endsWith(e.suffix));
  if (!endpoint) return { none: `no SDK method sends a request to ${url}` };
  let body: unknown;
  try {
    body = JSON.parse(exchange.request.body);
  } catch {
    return { none: 'the body the SDK sent is not JSON' };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { none: 'the body the SDK sent is not a JSON object' };
  const object = body as Record<string, unknown>;
  return {
    baseUrl: url.slice(0, url.length - endpoint.suffix.length),
    method: endpoint.method,
    body: object,
    stream: object.stream === true,
  };
}

/** The SDK call in TypeScript: the SDK the vendor's dialect uses, the body as a literal it type-checks against. */
export function wireTypeScript(exchange: WireExchange): string | undefined {
  const call = sdkCallOf(exchange);
  if ('none' in call) return undefined;
  const keyVar = keyVariableOf(exchange);
  const anthropic = exchange.dialect === 'anthropic';
  const sdk = anthropic ? "import Anthropic from '@anthropic-ai/sdk';" : "import OpenAI from 'openai';";
  const client = anthropic ? 'Anthropic' : 'OpenAI';
  const body = JSON.stringify(call.body, null, 2).replace(/\n/g, '\n  ');
  return [
    ...simulatedNote(exchange).map((line) => line.replace(/^#/, '//')),
    `// Request ${exchange.n} of the run, as the SDK sent it (the key from ${keyVar}).`,
    sdk,
    '',
    `const client = new ${client}({`,
    `  apiKey: process.env.${keyVar},`,
    `  baseURL: ${JSON.stringify(call.baseUrl)},`,
    '  maxRetries: 0,',
    '});',
    '',
    'async function main(): Promise<void> {',
    `  const answer = await client.${call.method}(${body});`,
    call.stream
      ? '  for await (const event of answer) console.log(JSON.stringify(event));'
      : '  console.log(JSON.stringify(answer, null, 2));',
    '}',
    '',
    'main().catch((error: unknown) => {',
    '  console.error(error);',
    '  process.exitCode = 1;',
    '});',
    '',
  ].join('\n');
}

/** The SDK call in Python: the vendor's Python SDK, the body as sent read from JSON. */
export function wirePython(exchange: WireExchange): string | undefined {
  const call = sdkCallOf(exchange);
  if ('none' in call) return undefined;
  const keyVar = keyVariableOf(exchange);
  const anthropic = exchange.dialect === 'anthropic';
  // A JSON string literal is a Python string literal too (its escapes are Python's).
  const literal = JSON.stringify(JSON.stringify(call.body, null, 2));
  return [
    ...simulatedNote(exchange),
    `# Request ${exchange.n} of the run, as the SDK sent it (the key from ${keyVar}).`,
    'import json',
    'import os',
    '',
    anthropic ? 'import anthropic' : 'import openai',
    '',
    `client = ${anthropic ? 'anthropic.Anthropic' : 'openai.OpenAI'}(`,
    `    api_key=os.environ[${JSON.stringify(keyVar)}],`,
    `    base_url=${JSON.stringify(call.baseUrl)},`,
    '    max_retries=0,',
    ')',
    `body = json.loads(${literal})`,
    `answer = client.${call.method}(**body)`,
    ...(call.stream
      ? ['for event in answer:', '    print(event.model_dump_json())']
      : ['print(answer.model_dump_json(indent=2))']),
    '',
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
