import { expect, test } from './test';

/**
 * Against `next start`, where proxy.ts makes Next buffer every /api request body: a large
 * import arrives whole, a body over the limit is a 413 naming it, and a page reached under a
 * DNS name the server does not expect (DNS rebinding) reads nothing.
 */
function tracerJsonl(toolLines: number): string {
  const ts = 1_760_000_000;
  const lines = [
    JSON.stringify({
      run_id: 'big',
      ts,
      event: 'llm_call',
      iteration: 1,
      input_tokens: 10,
      output_tokens: 5,
    }),
  ];
  const result = 'r'.repeat(1_000);
  for (let i = 0; i < toolLines; i += 1) {
    lines.push(
      JSON.stringify({
        run_id: 'big',
        ts: ts + i / 1000,
        event: 'tool_call',
        iteration: 1,
        tool: 'read_file',
        args: { path: `f${i}.ts` },
        result,
      }),
    );
  }
  lines.push(
    JSON.stringify({
      run_id: 'big',
      ts: ts + toolLines,
      event: 'terminate',
      iteration: 1,
      reason: 'end_turn',
      complete: true,
    }),
  );
  return `${lines.join('\n')}\n`;
}

test('a 15 MB import is stored whole, and a body over the limit is a 413 naming it', async ({ request }) => {
  const body = tracerJsonl(14_000);
  expect(Buffer.byteLength(body)).toBeGreaterThan(15_000_000);
  const created = await request.post('/api/runs/import', {
    headers: { 'content-type': 'application/x-ndjson' },
    data: body,
    timeout: 120_000,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const trace = (await (await request.get(`/api/runs/${id}/trace`)).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; reason?: string });
  expect(trace.filter((e) => e.event === 'tool_call')).toHaveLength(14_000);
  expect(trace.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });

  const over = await request.post('/api/runs/import', {
    headers: { 'content-type': 'application/x-ndjson' },
    data: 'a'.repeat(22 * 1024 * 1024),
    timeout: 120_000,
  });
  expect(over.status()).toBe(413);
  expect(((await over.json()) as { error: string }).error).toContain('20 MiB');
});

test('every read answers 403 under a foreign Host and 200 under the address the server listens on', async ({
  request,
}) => {
  for (const path of ['/api/runs', '/api/prompt-sets', '/api/sweeps', '/api/scenarios']) {
    const rebound = await request.get(path, { headers: { host: 'rebind.evil.example' } });
    expect(rebound.status(), path).toBe(403);
    expect((await request.get(path)).status(), path).toBe(200);
  }
});
