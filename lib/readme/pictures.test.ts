import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToEnd } from '@/lib/testing/run-to-end';
import { captionOf, pictureBlockIn, readmeBlock, withPictureBlocks } from './caption';
import { PICTURES, runConfigOf, type ReadmePicture } from './pictures';
import { factsOf } from './run-facts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe("each README picture's run does what its caption says", () => {
  it.each(PICTURES.map((p) => [p.file, p] as const))('%s', async (_file, picture) => {
    const events = await runToEnd(runConfigOf(picture));
    expect(factsOf(events)).toEqual(picture.facts);
  });
});

describe('the README shows the pictures with the captions written from the table', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it.each(PICTURES.map((p) => [p.file, p] as const))('%s', (_file, picture) => {
    expect(pictureBlockIn(readme, picture.file)).toBe(readmeBlock(picture));
  });

  it('the first picture is the survived run on the default preset', () => {
    const first = readme.match(/^!\[[^\]]*\]\(([^)]+)\)$/m)?.[1];
    const picture = PICTURES.find((p) => p.file === first);
    expect(picture?.facts.outcome).toBe('completed');
    expect(captionOf(picture!)).toContain('(the default preset)');
    expect(picture!.facts.failures.length).toBeGreaterThan(0);
  });

  it('each picture exists and is under 400 kB', () => {
    for (const picture of PICTURES) expect(fs.statSync(path.join(ROOT, picture.file)).size).toBeLessThan(400_000);
  });
});

describe('withPictureBlocks', () => {
  const picture: ReadmePicture = PICTURES[0]!;

  it('rewrites an image line and its caption in place, and adds a caption where there was none', () => {
    const stale = `# T\n\n![old words](${picture.file})\n\n*an old claim*\n\nafter\n`;
    const bare = `# T\n\n![old words](${picture.file})\n\nafter\n`;
    const want = `# T\n\n${readmeBlock(picture)}\n\nafter\n`;
    expect(withPictureBlocks(stale, [picture])).toBe(want);
    expect(withPictureBlocks(bare, [picture])).toBe(want);
    expect(withPictureBlocks(want, [picture])).toBe(want);
  });

  it('refuses a README that does not show the picture', () => {
    expect(() => withPictureBlocks('# T\n', [picture])).toThrow(/shows no/);
  });
});
