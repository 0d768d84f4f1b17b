import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESETS, RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from './launch-run';

/**
 * An OpenAI-compatible base URL that answers in another API's stream format (here Ollama's
 * native /api/chat records, sent as SSE): the run says so and does not retry.
 */
describe('an upstream answering in a format its dialect does not speak', () => {
  let server: http.Server;
  let baseUrl = '';
  let requests = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const record = {
        model: 'llama3',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: 'hi' },
        done: false,
      };
      res.end(`data: ${JSON.stringify(record)}\n\ndata: [DONE]\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    vi.stubEnv('LOOP_LAB_ALLOWED_REQUEST_HOSTS', new URL(baseUrl).host);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is an error that names the base URL and the dialect, classified final, and resent within the budget by CodeSmith’s exclusion rule', async () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'openai-compatible', model: 'llama3', baseUrl, keySource: 'request' },
      preset: 'codesmith',
      clock: 'real',
      timeScale: 0.01,
      seed: 3,
      budgets: { maxIterations: 2 },
    });
    const events: RunEvent[] = [];
    await launchRun({
      runId: 'upstream-format',
      config,
      apiKey: 'sk-test-upstream-format',
      onEvent: (e) => events.push(e),
    }).done;
    const errors = events.filter((e) => e.event === 'model_error');
    expect(errors).toHaveLength(PRESETS.codesmith.retry.maxRetries + 1);
    expect(errors[0]).toMatchObject({ category: 'invalid_input', retryable: false });
    expect((errors[0] as { message: string }).message).toContain(
      `the upstream at ${baseUrl} answered in a format the openai dialect does not speak: a streamed record has no "choices" array`,
    );
    const waits = events.filter((e) => e.event === 'retry_scheduled');
    expect(waits).toHaveLength(PRESETS.codesmith.retry.maxRetries);
    for (const w of waits)
      expect(w).toMatchObject({
        reason: expect.stringContaining('retried although the classifier calls it final'),
      });
    expect(events.find((e) => e.event === 'retry_declined')).toMatchObject({
      rule: 'budget_spent',
      next: 'surface',
    });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'retries_exhausted' });
    expect(events.filter((e) => e.event === 'model_request' && !e.background)).toHaveLength(
      PRESETS.codesmith.retry.maxRetries + 1,
    );
    expect(requests).toBeGreaterThanOrEqual(1);
  });
});
