import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A mechanism is a module: one folder under lib/mechanisms/, and outside it only the registration
 * lists in lib/mechanisms/modules/ import from it or name it, at most five of them. So adding a
 * mechanism touches at most five files outside its folder (docs/ARCHITECTURE.md, "Add a mechanism").
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MECHANISMS = 'lib/mechanisms';
const LISTS = 'lib/mechanisms/modules';
const MAX_LISTS = 5;
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|md|mdx|json|ya?ml|css|sh)$/;

/** Every file of the repo as git sees it (tracked and new, ignored ones left out). */
function repoFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter((f) => TEXT.test(f) && !f.startsWith('node_modules/'));
}

/** The module folders: every folder of lib/mechanisms/ but the lists' own. */
function moduleFolders(): string[] {
  return readdirSync(path.join(ROOT, MECHANISMS), { withFileTypes: true })
    .filter((d) => d.isDirectory() && `${MECHANISMS}/${d.name}` !== LISTS)
    .map((d) => d.name);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` (the file `file`) reaches the module folder `name`: it names the folder
 * (`lib/mechanisms/<name>`, or `<name>/` as a path segment in prose) or imports from it by a
 * relative path (`../<name>/about`).
 */
function reaches(file: string, text: string, name: string): boolean {
  const named = new RegExp(`mechanisms/${escape(name)}(?![\\w-])|(?<![\\w-])${escape(name)}/`);
  if (named.test(text)) return true;
  const folder = `${MECHANISMS}/${name}`;
  for (const [, spec] of text.matchAll(/(?:from|import\(|require\()\s*['"](\.{1,2}\/[^'"]*)['"]/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec!));
    if (target === folder || target.startsWith(`${folder}/`)) return true;
  }
  return false;
}

describe('a mechanism module is reached only through the registration lists', () => {
  it('the rule: a name or an import, by path or relative', () => {
    expect(reaches('lib/protocol/x.ts', "import { A } from '@/lib/mechanisms/foo/about';", 'foo')).toBe(true);
    expect(reaches('lib/mechanisms/modules/x.ts', "import * as f from '../foo/about';", 'foo')).toBe(true);
    expect(reaches('docs/x.md', 'the folders (foo/, bar/) are examples', 'foo')).toBe(true);
    expect(reaches('docs/x.md', 'see `lib/mechanisms/foo`.', 'foo')).toBe(true);
    expect(reaches('docs/x.md', 'lib/mechanisms/foo-bar/ and lib/mechanisms/<name>/', 'foo')).toBe(false);
    expect(reaches('lib/engine/x.ts', "mechanism: 'foo', import { a } from './foo-b';", 'foo')).toBe(false);
    expect(reaches('lib/mechanisms/x.ts', "import { a } from './module';", 'foo')).toBe(false);
  });

  it(`outside each module's folder, only lib/mechanisms/modules/ names it, in at most ${MAX_LISTS} files`, () => {
    const lists = readdirSync(path.join(ROOT, LISTS))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => `${LISTS}/${f}`);
    expect(lists.length).toBeLessThanOrEqual(MAX_LISTS);
    const folders = moduleFolders();
    expect(folders.length).toBeGreaterThan(0);
    const files = repoFiles().map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
    const strays: Record<string, string[]> = {};
    const counts: Record<string, number> = {};
    for (const name of folders) {
      const outside = files
        .filter(({ file, text }) => !file.startsWith(`${MECHANISMS}/${name}/`) && reaches(file, text, name))
        .map(({ file }) => file);
      strays[name] = outside.filter((file) => !lists.includes(file));
      counts[name] = outside.length;
    }
    expect(strays, 'files outside a module folder that name it or import from it').toEqual(
      Object.fromEntries(folders.map((name) => [name, []])),
    );
    for (const name of folders) expect(counts[name], name).toBeLessThanOrEqual(MAX_LISTS);
  });
});
