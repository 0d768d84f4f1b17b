import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citationsIn, missingCitations } from './cited-paths';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const cited = (file: string, text: string): string[] =>
  citationsIn(file, text).map((c) => `${c.line}:${c.cited}`);

describe('every repo path a comment or doc cites exists', () => {
  it('in lib, app, components, e2e, scripts, .ci, the top-level files, README.md and docs/', () => {
    const missing = missingCitations(ROOT).map((c) => `${c.file}:${c.line} → ${c.cited}`);
    expect(missing, `cited paths that do not exist:\n${missing.join('\n')}\n`).toEqual([]);
  });
});

describe('what counts as a citation', () => {
  it('reads paths in line and block comments, with their lines', () => {
    const text = [
      "import { a } from './a';",
      '// see lib/engine/gone.ts.',
      '/**',
      ' * and app/api/runs/[id]/route.ts, lib/store/',
      ' */',
      'const x = 1; // components/ui/x.tsx',
    ].join('\n');
    expect(cited('lib/x.ts', text)).toEqual([
      '2:lib/engine/gone.ts',
      '4:app/api/runs/[id]/route.ts',
      '4:lib/store/',
      '6:components/ui/x.tsx',
    ]);
  });

  it('skips string, template and regular-expression literals and JSX text: those are runtime text', () => {
    const text = [
      "const a = 'docs/setup.md'; const b = `lib/${a}/x.ts`; const c = /lib\\/y.ts/;",
      'const d = `// lib/not-a-comment.ts`;',
      'const e = <p>http://x // lib/in-jsx-text.ts</p>;',
      '// lib/real.ts',
    ].join('\n');
    expect(cited('components/x.tsx', text)).toEqual(['4:lib/real.ts']);
  });

  it('skips URLs, package paths, aliases and the part of a pattern after its wildcard or placeholder', () => {
    const text = [
      '// https://github.com/o/r/blob/main/lib/a.ts, @anthropic-ai/sdk/lib/b.js, node_modules/x/lib/c.ts',
      '// @/lib/engine and ../lib/d.ts are not top-level citations',
      '// lib/**/*.test.ts, lib/server/get-*-registry.ts, lib/dialects/<name>/index.ts, lib/<room>',
    ].join('\n');
    expect(cited('lib/x.ts', text)).toEqual(['3:lib/server/', '3:lib/dialects/']);
  });

  it('reads a bare file name in a comment, but not one glued to a wildcard or a dot', () => {
    expect(cited('lib/x.ts', '// checked by mark-palette.test.ts (not *.test.ts nor .testkit.ts)')).toEqual([
      '1:mark-palette.test.ts',
    ]);
  });

  it('reads the whole of a Markdown doc and resolves its relative links against the doc', () => {
    const text = [
      'See [config](config.md) and `lib/a.ts`.',
      '[code](../lib/b.ts#L3) [site](https://x.dev/docs/y.md)',
    ].join('\n');
    expect(cited('docs/z.md', text)).toEqual(['1:lib/a.ts', '1:config.md', '1:docs/config.md', '2:lib/b.ts']);
  });

  it('reads a shell script’s comments only', () => {
    expect(cited('.ci/run', 'echo lib/a.ts\n# runs lib/b.ts\nx=1 # and docs/c.md')).toEqual([
      '2:lib/b.ts',
      '3:docs/c.md',
    ]);
  });
});
