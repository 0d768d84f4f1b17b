import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pngText, withPngText } from './png-text';

// A 1×1 grey PNG (signature, IHDR, IDAT, IEND).
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==',
  'base64',
);

describe('PNG text chunks', () => {
  it('writes a text chunk that reads back, replaces it on a second write, and keeps the image chunks as they were', () => {
    expect(pngText(png, 'loop-lab')).toBeUndefined();
    const once = withPngText(png, 'loop-lab', '{"cost":"$0.020"}');
    expect(pngText(once, 'loop-lab')).toBe('{"cost":"$0.020"}');
    const twice = withPngText(once, 'loop-lab', '{"cost":"$0.038"}');
    expect(pngText(twice, 'loop-lab')).toBe('{"cost":"$0.038"}');
    expect(twice.length).toBe(once.length);
    // Every chunk's CRC holds (a viewer refuses a PNG whose CRC does not).
    for (let at = 8; at < twice.length;) {
      const length = twice.readUInt32BE(at);
      expect(twice.readUInt32BE(at + 8 + length)).toBe(crc32(twice.subarray(at + 4, at + 8 + length)));
      at += 12 + length;
    }
    expect(twice.subarray(twice.length - 12).toString('latin1', 4, 8)).toBe('IEND');
  });

  it('refuses what is not a PNG and a keyword a PNG cannot hold', () => {
    expect(() => pngText(Buffer.from('GIF89a'), 'k')).toThrow(/not a PNG/);
    expect(() => withPngText(png, '', 'x')).toThrow(/keyword/);
  });
});
