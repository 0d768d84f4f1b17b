import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleSweepWorker } from './worker-bundle';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bundle-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * Writes a source dated a minute ago: a source saved in the millisecond a build starts counts as
 * saved during it (stale), and a build started right after the writes can fall in that millisecond.
 */
function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
  const before = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, file), before, before);
}

/** Loads a bundle by a URL of its own, so each build is a new module. */
async function load(file: string): Promise<(task: { x: number }) => number> {
  const url = `${pathToFileURL(file).href}?v=${fs.statSync(file).mtimeMs}-${Math.random()}`;
  return ((await import(/* @vite-ignore */ url)) as { default: (task: { x: number }) => number }).default;
}

describe('bundleSweepWorker', () => {
  it('bundles the worker entry and what it imports into one file, reuses it while fresh, rebuilds when a source changes', async () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }));
    write('lib/sweeps/step.ts', 'export const step: number = 1;\n');
    write('lib/sweeps/worker-bundle.ts', '// the builder\n');
    write(
      'lib/sweeps/sweep-worker-entry.ts',
      "import { step } from '@/lib/sweeps/step';\nexport default function run(task: { x: number }): number {\n  /** a note for people, not for the bundle */\n  return task.x + step;\n}\n",
    );
    fs.mkdirSync(path.join(root, 'node_modules'));

    const file = await bundleSweepWorker(root);
    expect(file.startsWith(path.join(root, 'node_modules', '.cache'))).toBe(true);
    expect((await load(file))({ x: 1 })).toBe(2);
    // Without comments and indentation (the source stays in every worker's heap).
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('a note for people');
    expect(text).not.toMatch(/\n\s+return/);
    const builtAt = fs.statSync(file).mtimeMs;

    // Fresh: the same file, not rebuilt.
    expect(await bundleSweepWorker(root)).toBe(file);
    expect(fs.statSync(file).mtimeMs).toBe(builtAt);

    // An imported source changes: the next pool gets the new code.
    write('lib/sweeps/step.ts', 'export const step: number = 10;\n');
    const later = new Date(builtAt + 5_000);
    fs.utimesSync(path.join(root, 'lib/sweeps/step.ts'), later, later);
    expect((await load(await bundleSweepWorker(root)))({ x: 1 })).toBe(11);
    // A change to how bundles are built makes the one on disk stale too.
    const earlier = new Date(builtAt - 60_000);
    fs.utimesSync(path.join(root, 'lib/sweeps/step.ts'), earlier, earlier);
    await bundleSweepWorker(root);
    const rebuiltAt = fs.statSync(file).mtimeMs;
    expect(await bundleSweepWorker(root)).toBe(file);
    expect(fs.statSync(file).mtimeMs).toBe(rebuiltAt);
    const later2 = new Date(rebuiltAt + 5_000);
    fs.utimesSync(path.join(root, 'lib/sweeps/worker-bundle.ts'), later2, later2);
    await bundleSweepWorker(root);
    expect(fs.statSync(file).mtimeMs).not.toBe(rebuiltAt);
    // Nothing half-written is left beside it.
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it("keeps the tokenizer's rank tables out of the bundle, as a data file beside it, and rebuilds when that file is gone", async () => {
    // A rank table shaped as gpt-tokenizer ships them: an ES module exporting strings and byte lists.
    write(
      'node_modules/gpt-tokenizer/package.json',
      JSON.stringify({ name: 'gpt-tokenizer', type: 'module' }),
    );
    write(
      'node_modules/gpt-tokenizer/esm/bpeRanks/tiny_base.js',
      'const c0 = ["a", " b", "\\u00e9t\\u00e9", [255, 254]];\nexport default c0;\n',
    );
    write(
      'lib/sweeps/sweep-worker-entry.ts',
      "import ranks from 'gpt-tokenizer/esm/bpeRanks/tiny_base.js';\nexport default function run(task: { x: number }): unknown {\n  return ranks[task.x];\n}\n",
    );
    // (The test above dated the builder in the future.)
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'lib/sweeps/worker-bundle.ts'), past, past);
    fs.rmSync(path.join(root, 'node_modules/.cache'), { recursive: true, force: true });
    const file = await bundleSweepWorker(root);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('" b"');
    const data = path.join(path.dirname(file), 'sweep-worker.tiny_base.json');
    expect(JSON.parse(fs.readFileSync(data, 'utf8'))).toEqual(['a', ' b', 'été', [255, 254]]);
    const run = (await load(file)) as unknown as (task: { x: number }) => unknown;
    expect([run({ x: 2 }), run({ x: 3 })]).toEqual(['été', [255, 254]]);

    // Fresh while its data file is there; built again (the data file with it) when it is not.
    const builtAt = fs.statSync(file).mtimeMs;
    expect(await bundleSweepWorker(root)).toBe(file);
    expect(fs.statSync(file).mtimeMs).toBe(builtAt);
    fs.rmSync(data);
    await bundleSweepWorker(root);
    expect(fs.existsSync(data)).toBe(true);
  });

  it('says what to do when started outside the project', async () => {
    await expect(bundleSweepWorker(path.join(root, 'nowhere'))).rejects.toThrow(/LOOP_LAB_ROOT/);
  });
});
