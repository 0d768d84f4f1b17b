import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { RunRecordSchema } from '@/lib/protocol/http';
import { getRunRegistry } from '@/lib/server';
import { GET as getRun } from './[id]/route';
import { GET as getTrace } from './[id]/trace/route';
import { POST as postRun } from './route';

// A key pasted into the config (the system prompt, the task) is redacted in the stored config
// as in the events: GET /api/runs/:id answers with the redacted config.
useTempDataDir('loop-lab-config-redaction-');
afterEach(() => vi.unstubAllEnvs());

const ENV_KEY = 'sk-ant-env-canary-0123456789abcdef';
const REQUEST_KEY = 'sk-request-canary-0123456789abcdef';

describe('POST /api/runs: the stored config', () => {
  it('holds neither the environment key nor the request key pasted into it', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    const config = {
      provider: { vendor: 'sim-anthropic', keySource: 'request' },
      clock: 'virtual',
      system: `You are careful. Our key is ${ENV_KEY}.`,
      task: `Fix the failing test. (mine: ${REQUEST_KEY})`,
    };
    const created = await postRun(jsonPost('http://localhost/api/runs', { config, apiKey: REQUEST_KEY }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await getRunRegistry().whenFinished(id);
    const record = await (
      await getRun(new Request(`http://localhost/api/runs/${id}`), routeContext({ id }))
    ).text();
    const trace = await (
      await getTrace(new Request(`http://localhost/api/runs/${id}/trace`), routeContext({ id }))
    ).text();
    for (const text of [record, trace])
      for (const key of [ENV_KEY, REQUEST_KEY]) expect(text).not.toContain(key);
    const { config: stored } = RunRecordSchema.parse(JSON.parse(record));
    expect(stored.system).toBe('You are careful. Our key is [redacted].');
    expect(stored.task).toBe('Fix the failing test. (mine: [redacted])');
  }, 60_000);
});
