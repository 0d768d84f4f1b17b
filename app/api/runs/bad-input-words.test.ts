import { describe, expect, it } from 'vitest';
import { jsonPost, useTempDataDir } from '@/lib/testing/api-test-env';
import { ErrorBodySchema, parseResponse } from '@/lib/protocol/http';
import { POST as postRun } from './route';

useTempDataDir('loop-lab-bad-input-');

async function refused(config: unknown): Promise<string[]> {
  const response = await postRun(jsonPost('http://localhost/api/runs', JSON.stringify({ config })));
  expect(response.status).toBe(400);
  const body = parseResponse(ErrorBodySchema, await response.json(), 'POST /api/runs 400');
  return body.details ?? [];
}

describe('POST /api/runs refuses bad numbers in words', () => {
  it('a seed of -7 is refused, naming seed, the rule and the value sent', async () => {
    const details = await refused({ provider: { vendor: 'sim-anthropic' }, seed: -7 });
    expect(details).toEqual(['config.seed: must be at least 0 — it is -7']);
  });

  it('a time scale of -2 and a negative retry count say which field and what to change, not schema terms', async () => {
    const details = await refused({
      provider: { vendor: 'sim-anthropic' },
      timeScale: -2,
      recovery: { retry: { maxRetries: -1 } },
    });
    expect(details).toEqual(
      expect.arrayContaining([
        'config.timeScale: must be at least 0.001 — it is -2',
        'config.recovery.retry.maxRetries: must be at least 0 — it is -1',
      ]),
    );
    for (const line of details) expect(line).not.toMatch(/Too small|expected number|>=/);
  });
});
