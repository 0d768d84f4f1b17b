import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDataDir } from '@/lib/testing/api-test-env';

// Every route handler under app/api that can change state — including ones added later —
// refuses cross-site requests and CORS-simple bodies before it reads anything.
const API_DIR = path.join(__dirname);
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === 'route.ts' ? [full] : [];
  });
}

useTempDataDir('loop-lab-cross-site-');

const context = {
  params: Promise.resolve(new Proxy({}, { get: () => 'some-id' }) as Record<string, string>),
};
const body = JSON.stringify({
  config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' },
  action: 'abort',
});
const ATTACKS: { name: string; headers: Record<string, string>; status: number }[] = [
  {
    name: 'a JSON post from another origin',
    headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    status: 403,
  },
  {
    name: 'a no-preflight text/plain post from another site',
    headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
    status: 403,
  },
  {
    name: 'a same-site subdomain',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
    status: 403,
  },
  {
    name: 'a text/plain body with no browser headers',
    headers: { 'content-type': 'text/plain' },
    status: 415,
  },
  { name: 'a form body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415 },
];

describe('state-changing API routes refuse cross-site requests', () => {
  const files = routeFiles(API_DIR);
  it('finds the route files', () => {
    expect(files.map((f) => path.relative(API_DIR, f))).toEqual(
      expect.arrayContaining(['runs/route.ts', 'runs/import/route.ts']),
    );
  });

  for (const file of files) {
    it(`${path.relative(API_DIR, file)}: 403 for another site, 415 for a simple body, nothing created`, async () => {
      const module = (await import(file)) as Partial<Record<(typeof WRITE_METHODS)[number], Handler>>;
      const { GET: listRuns } = await import('./runs/route');
      const count = async () =>
        ((await (await listRuns(new Request('http://localhost/api/runs'))).json()) as unknown[]).length;
      const before = await count();
      for (const method of WRITE_METHODS) {
        const handler = module[method];
        if (!handler) continue;
        for (const attack of ATTACKS) {
          const request = new Request('http://localhost/api/x', {
            method,
            body,
            headers: { host: 'localhost', ...attack.headers },
          });
          const response = await handler(request, context);
          expect({ method, attack: attack.name, status: response.status }).toEqual({
            method,
            attack: attack.name,
            status: attack.status,
          });
          expect(((await response.json()) as { error: string }).error).toMatch(
            /Cross-site request refused|Unsupported Content-Type/,
          );
        }
      }
      expect(await count()).toBe(before);
    });
  }
});
