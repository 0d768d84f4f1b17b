import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRunRegistry, getSweepRegistry } from '@/lib/server';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch, ROUTES } from '@/scripts/api/dispatch-route';
import { startValidRun, UNBROWSER_HOSTS } from '@/scripts/api/api-fuzz';

/**
 * DNS rebinding: a page on another site re-points its own name at 127.0.0.1 and reads what
 * this server answers. Every /api request, reads included, goes through proxy.ts, which
 * refuses a Host the server does not expect before any route runs.
 */
useTempDataDir('loop-lab-rebinding-');

let runId: string;
let shareToken: string;
let sweepId: string;
// The bench's diagnostics route answers only when the server was started for the bench: on here,
// so it is read like every other route (and refused like them under a foreign Host).
const diagnosticsBefore = process.env.LOOP_LAB_BENCH_DIAGNOSTICS;
afterAll(() => {
  if (diagnosticsBefore === undefined) delete process.env.LOOP_LAB_BENCH_DIAGNOSTICS;
  else process.env.LOOP_LAB_BENCH_DIAGNOSTICS = diagnosticsBefore;
});
beforeAll(async () => {
  process.env.LOOP_LAB_BENCH_DIAGNOSTICS = '1';
  runId = await startValidRun();
  await getRunRegistry().whenFinished(runId);
  const grid = { configurations: [{ id: 'naive', preset: 'naive' }], seeds: { from: 1, to: 1 } };
  const created = await dispatch({ method: 'POST', path: '/api/sweeps', body: JSON.stringify(grid) });
  expect(created.status).toBe(201);
  sweepId = ((await created.json()) as { id: string }).id;
  await getSweepRegistry().whenFinished(sweepId);
  const saved = await dispatch({
    method: 'POST',
    path: '/api/prompt-sets',
    body: JSON.stringify({ name: 'terse', system: 'Be brief.', toolDescriptions: {} }),
  });
  expect(saved.status).toBe(201);
  const shared = await dispatch({ method: 'POST', path: `/api/runs/${runId}/share`, body: '{}' });
  expect(shared.status).toBe(201);
  shareToken = ((await shared.json()) as { token: string }).token;
}, 180_000);

/** Room mode's own reads: outside a room a trusted Host gets their 404 ("not a room"). */
const ROOM_ONLY = new Set(['/api/board', '/api/board/events', '/api/room/notices']);

/** Every GET route, with ids that exist, so a trusted Host gets a 200. */
function getPaths(): string[] {
  const ids: Record<string, string> = {
    '/api/runs/:id': runId,
    '/api/sweeps/:id': sweepId,
    '/api/cassettes/:id': 'shipped:explain-project.sim-anthropic',
  };
  return ROUTES.filter((r) => r.method === 'GET').map((route) => {
    if (route.pattern === '/api/compare') return `/api/compare?a=${runId}&b=${runId}`;
    if (route.pattern.startsWith('/api/shared/')) return route.pattern.replace(':token', shareToken);
    const prefix = Object.keys(ids).find((p) => route.pattern.startsWith(p));
    return prefix ? route.pattern.replace(':id', ids[prefix]!) : route.pattern;
  });
}

async function statusUnder(path: string, host: string): Promise<number> {
  const response = await dispatch({ method: 'GET', path, headers: { host } });
  await response.body?.cancel();
  return response.status;
}

describe('a Host the server does not expect', () => {
  it('is refused on every GET route — runs, events, SSE, trace, OTLP, prompt sets, sweeps — and the same reads answer under localhost', async () => {
    const paths = getPaths();
    for (const wanted of [
      '/api/runs',
      `/api/runs/${runId}`,
      `/api/runs/${runId}/events`,
      `/api/runs/${runId}/trace`,
      `/api/runs/${runId}/otel`,
      '/api/prompt-sets',
      '/api/sweeps',
      '/api/cassettes',
      '/api/cassettes/shipped:explain-project.sim-anthropic',
    ]) {
      expect(paths).toContain(wanted);
    }
    for (const path of paths) {
      expect(await statusUnder(path, 'rebind.evil.example'), `${path} under a foreign Host`).toBe(403);
      expect(
        await statusUnder(path, 'rebind.evil.example:3000'),
        `${path} under a foreign Host with a port`,
      ).toBe(403);
      const trusted = ROOM_ONLY.has(path) ? 404 : 200;
      expect(await statusUnder(path, 'localhost:3000'), `${path} under localhost`).toBe(trusted);
      expect(await statusUnder(path, '127.0.0.1:3000'), `${path} under 127.0.0.1`).toBe(trusted);
      expect(await statusUnder(path, '[::1]:3000'), `${path} under [::1]`).toBe(trusted);
    }
  });

  it('is refused when spelled as no browser spells it: a trailing dot, another form of an IP address, userinfo', async () => {
    for (const path of getPaths()) {
      for (const host of [...UNBROWSER_HOSTS, 'loc%61lhost:3000']) {
        expect(await statusUnder(path, host), `${path} under Host ${host}`).toBe(403);
      }
    }
    const written = await dispatch({
      method: 'POST',
      path: '/api/runs',
      body: '{}',
      headers: { host: '127.0.0.1.:3000' },
    });
    expect(written.status).toBe(403);
  });

  it("refuses an Origin no browser sends, reads and writes alike, and lets the page's own through", async () => {
    for (const origin of [
      'http://evil@127.0.0.1:3000',
      'http://127.0.0.1.:3000',
      'http://127.0.0.1:3000/path',
    ]) {
      const read = await dispatch({
        method: 'GET',
        path: '/api/runs',
        headers: { host: '127.0.0.1:3000', origin },
      });
      expect(read.status, origin).toBe(403);
      expect(((await read.json()) as { error: string }).error).toMatch(/not one a browser sends/);
      const write = await dispatch({
        method: 'POST',
        path: '/api/prompt-sets',
        body: '{"name":"x"}',
        headers: { host: '127.0.0.1:3000', origin },
      });
      expect(write.status, origin).toBe(403);
    }
    const own = await dispatch({
      method: 'GET',
      path: '/api/runs',
      headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
    });
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it('is refused on writes too, and the 403 says how to be let in', async () => {
    const response = await dispatch({
      method: 'POST',
      path: '/api/runs',
      body: '{}',
      headers: { host: 'rebind.evil.example' },
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /not expected to be reached as "rebind\.evil\.example".*LOOP_LAB_ALLOWED_HOSTS/,
    );
  });

  it('lets in the name the server listens on (LOOP_LAB_HOST) and the names in LOOP_LAB_ALLOWED_HOSTS', async () => {
    expect(await statusUnder('/api/runs', 'loop.lan:3000')).toBe(403);
    process.env.LOOP_LAB_HOST = 'loop.lan';
    process.env.LOOP_LAB_ALLOWED_HOSTS = 'other.lan, third.lan';
    try {
      expect(await statusUnder('/api/runs', 'loop.lan:3000')).toBe(200);
      expect(await statusUnder('/api/runs', 'third.lan')).toBe(200);
      expect(await statusUnder('/api/runs', 'fourth.lan')).toBe(403);
    } finally {
      delete process.env.LOOP_LAB_HOST;
      delete process.env.LOOP_LAB_ALLOWED_HOSTS;
    }
  });
});
