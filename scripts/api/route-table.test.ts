import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './dispatch-route';

/** Every `export async function GET|POST` (or `export const GET = …`) in every route file under app/api, as `METHOD /api/path/:param`. */
function routesOnDisk(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name === 'route.ts') {
        const pattern =
          '/' +
          path
            .relative('app', dir)
            .split(path.sep)
            .map((segment) => segment.replace(/^\[(.+)\]$/, ':$1'))
            .join('/');
        const source = fs.readFileSync(file, 'utf8');
        for (const [, method] of source.matchAll(
          /export\s+(?:async\s+function|const)\s+(GET|POST|PUT|PATCH|DELETE)\b/g,
        ))
          found.push(`${method} ${pattern}`);
      }
    }
  };
  walk(path.join('app', 'api'));
  return found.sort();
}

describe('the route table the scripts dispatch through', () => {
  it('holds exactly the routes the files under app/api serve', () => {
    const table = ROUTES.map((route) => `${route.method} ${route.pattern}`).sort();
    expect(routesOnDisk().length).toBeGreaterThan(10);
    expect(table).toEqual(routesOnDisk());
  });
});
