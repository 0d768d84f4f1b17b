import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRunRegistry } from '@/lib/server';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import {
  controlBodies,
  dispatch,
  fuzzRequests,
  importBodies,
  resumeValues,
  runBodies,
  startValidRun,
  type FuzzRequest,
} from './api-fuzz';

let knownId: string;

useTempDataDir('loop-lab-fuzz-');
beforeAll(async () => {
  knownId = await startValidRun();
  await getRunRegistry().whenFinished(knownId);
});

/** Never a 5xx; every 4xx is JSON with an error a person can read, naming what to fix. */
async function answersWell(request: FuzzRequest): Promise<void> {
  const response = await dispatch(request);
  const text = await response.text();
  expect(
    response.status,
    `${request.method} ${request.path}\n${request.body?.slice(0, 200) ?? ''}\n→ ${text.slice(0, 300)}`,
  ).toBeLessThan(500);
  if (response.status >= 400) {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown };
    expect(typeof body.error).toBe('string');
    expect((body.error as string).length).toBeGreaterThan(5);
  }
}

describe('the API under random malformed input', () => {
  it('answers malformed run configs with a 4xx naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(runBodies, async (body) => {
        const response = await dispatch({ method: 'POST', path: '/api/runs', body });
        const answer = (await response.json()) as { error?: string; details?: string[] };
        expect(response.status).toBeLessThan(500);
        if (response.status === 400 && answer.details) {
          // Each detail names a field path or a line: "config.seed: …", "apiKey: …", "(root): …".
          for (const detail of answer.details) expect(detail).toMatch(/^(\(root\)|[\w.$-]+|[^:]+): /);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to control messages, imports or resume points', async () => {
    await fc.assert(
      fc.asyncProperty(controlBodies, async (body) =>
        answersWell({ method: 'POST', path: `/api/runs/${knownId}/control`, body }),
      ),
      { numRuns: 80 },
    );
    await fc.assert(
      fc.asyncProperty(importBodies, async (body) =>
        answersWell({
          method: 'POST',
          path: '/api/runs/import',
          body,
          headers: { 'Content-Type': 'application/x-ndjson' },
        }),
      ),
      { numRuns: 80 },
    );
    await fc.assert(
      fc.asyncProperty(resumeValues, async (value) =>
        answersWell({
          method: 'GET',
          path: `/api/runs/${knownId}/events?after=${encodeURIComponent(value)}`,
        }),
      ),
      { numRuns: 60 },
    );
  });

  it('never answers 5xx to any mix of requests and paths, and still serves a valid run afterwards', async () => {
    await fc.assert(fc.asyncProperty(fuzzRequests(knownId), answersWell), { numRuns: 250 });
    const id = await startValidRun();
    await getRunRegistry().whenFinished(id);
    const events = await dispatch({ method: 'GET', path: `/api/runs/${id}/events` });
    expect(events.status).toBe(200);
    expect(await events.text()).toContain('"event":"terminate"');
  });
});
