import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the endpoint saw it: when (wall ms), for which model, under which system prompt, with which key. */
export interface SeenRequest {
  at: number;
  model: string;
  system: string;
  authorization: string;
  status: number;
  /** Whether the request offered tools (the loop's own turns; a run's title request offers none). */
  tools: boolean;
}

/** The tokens the endpoint reports for every answer (priced at the model's rates). */
export const ENDPOINT_USAGE = { prompt_tokens: 20_000, completion_tokens: 2_000 };

/**
 * An OpenAI-compatible endpoint written for the sweep tests, not Loop Lab's simulator: it
 * speaks Chat Completions streaming, keeps every request with its wall time, answers each with
 * a short final text, and answers request number `rateLimitAt` with a 429 and `Retry-After`.
 */
export async function startCountingEndpoint(
  options: { rateLimitAt?: number; retryAfterS?: number } = {},
): Promise<{
  url: string;
  host: string;
  seen: SeenRequest[];
  stop: () => Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as {
        model: string;
        messages: Array<{ role: string; content: unknown }>;
        tools?: unknown[];
      };
      const system = body.messages.find((m) => m.role === 'system');
      const entry: SeenRequest = {
        at,
        model: body.model,
        system: typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? ''),
        authorization: String(req.headers.authorization ?? ''),
        status: 200,
        tools: (body.tools?.length ?? 0) > 0,
      };
      seen.push(entry);
      if (seen.length === options.rateLimitAt) {
        entry.status = 429;
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(options.retryAfterS ?? 10),
        });
        res.end(
          JSON.stringify({
            error: {
              message: 'Rate limit reached for requests',
              type: 'requests',
              code: 'rate_limit_exceeded',
            },
          }),
        );
        return;
      }
      const chunk = (delta: object, finish: string | null = null): string =>
        `data: ${JSON.stringify({ id: 'chatcmpl-count', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: 'I looked; ' }));
      res.write(chunk({ content: 'nothing to change.' }));
      res.write(chunk({}, 'stop'));
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-count', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { ...ENDPOINT_USAGE, total_tokens: ENDPOINT_USAGE.prompt_tokens + ENDPOINT_USAGE.completion_tokens } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    seen,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The most requests the endpoint saw inside any window of `windowMs` (wall), less `slackMs` for the network's jitter. */
export function mostInAnyWindow(seen: readonly SeenRequest[], windowMs: number, slackMs: number): number {
  const times = seen.map((s) => s.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < times.length; i += 1) {
    let n = 0;
    for (let j = i; j < times.length && times[j]! < times[i]! + windowMs - slackMs; j += 1) n += 1;
    most = Math.max(most, n);
  }
  return most;
}
