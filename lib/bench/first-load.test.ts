import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What the playground's first paint loads: the modules its page reaches through static
 * imports (a dynamic import() is loaded later: the run view, the fold, the response schemas).
 * Bundled by esbuild as the browser would get it; the production figure is `npm run bench`.
 */
const root = path.resolve(import.meta.dirname, '../..');

async function firstLoad(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    outdir: path.join(root, '.first-load'),
    platform: 'browser',
    jsx: 'automatic',
    tsconfig: path.join(root, 'tsconfig.json'),
    external: ['react', 'react-dom', 'next', 'next/*', 'react/*', 'react-dom/*'],
    loader: { '.css': 'empty' },
    logLevel: 'silent',
  });
  return reachable(metafile, path.relative(process.cwd(), path.join(root, entry)));
}

function reachable(metafile: Metafile, entry: string): string[] {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of metafile.inputs[file]?.imports ?? []) {
      if (next.kind === 'dynamic-import' || next.external || seen.has(next.path)) continue;
      seen.add(next.path);
      queue.push(next.path);
    }
  }
  return [...seen];
}

describe("the playground's first load", () => {
  it('carries no zod and no schema: they are loaded with the first request or event', async () => {
    const modules = await firstLoad('components/controls/playground.tsx');
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter((m) => m.includes('node_modules/zod/'))).toEqual([]);
    expect(
      modules.filter((m) =>
        /lib\/protocol\/(http\/|event-families\/|events\.ts|config\.ts|recovery\.ts)/.test(m),
      ),
    ).toEqual([]);
    // The fold (the reducer with the event check) comes with a run's events, not with the page.
    expect(modules.filter((m) => m.includes('lib/run-view/reduce-run-event'))).toEqual([]);
  }, 60_000);
});
