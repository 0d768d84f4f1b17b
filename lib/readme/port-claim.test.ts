import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const scripts = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const nextCli = fs.readFileSync(path.join(root, 'node_modules/next/dist/bin/next'), 'utf8');

describe('the README’s word on choosing a port', () => {
  it('says PORT=… npm run dev and -p, and both reach next dev and next start', () => {
    expect(readme).toContain('`PORT=3100 npm run dev`');
    expect(readme).toContain('`npm run dev -- -p 3100`');
    // The scripts name no port of their own, so PORT from the environment (or -p appended) decides.
    for (const name of ['dev', 'start']) {
      expect(scripts[name]).toMatch(new RegExp(`^next ${name} `));
      expect(scripts[name]).not.toMatch(/(^|\s)(-p|--port)(\s|=|$)/);
    }
    // next's own CLI: dev and start each take -p, defaulting to 3000 and read from PORT.
    for (const command of ['dev', 'start']) {
      const at = nextCli.indexOf(`program.command('${command}'`);
      expect(at, command).toBeGreaterThanOrEqual(0);
      const declaration = nextCli.slice(at, nextCli.indexOf('.action(', at));
      expect(declaration).toMatch(
        /'-p, --port <port>'[^)]*\)\.argParser\([^)]*\)\.default\(3000\)\.env\('PORT'\)/,
      );
    }
  });
});
