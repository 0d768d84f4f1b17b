import { crc32 } from 'node:zlib';

/**
 * A PNG's text chunks (tEXt: a Latin-1 keyword, a NUL, the text): the screenshot step writes what
 * the page showed into the picture it took, so a test can hold the picture itself, not only the
 * run behind it, to the caption.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  /** Where the chunk starts (its length field) and where the next one does. */
  start: number;
  end: number;
  data: Buffer;
}

function chunksOf(png: Buffer): Chunk[] {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error('not a PNG (no PNG signature)');
  const chunks: Chunk[] = [];
  let at = SIGNATURE.length;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > png.length) throw new Error(`a PNG chunk (${type}) runs past the end of the file`);
    chunks.push({ type, start: at, end, data: png.subarray(at + 8, at + 8 + length) });
    at = end;
    if (type === 'IEND') break;
  }
  if (chunks.at(-1)?.type !== 'IEND') throw new Error('the PNG has no IEND chunk');
  return chunks;
}

/** The PNG with a tEXt chunk `keyword` holding `text` (an earlier one of that keyword is replaced), before IEND. */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  if (!/^[\x20-\x7e]{1,79}$/.test(keyword))
    throw new Error(`a PNG text keyword is 1–79 printable ASCII characters, not ${JSON.stringify(keyword)}`);
  if (!/^[\x20-\x7e\n]*$/.test(text))
    throw new Error('PNG text here is printable ASCII (JSON with \\u escapes for anything else)');
  const kept = chunksOf(png).filter((c) => !(c.type === 'tEXt' && pngTextKeyword(c.data) === keyword));
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
  const typeAndData = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  const iend = kept.at(-1)!;
  return Buffer.concat([
    SIGNATURE,
    ...kept.slice(0, -1).map((c) => png.subarray(c.start, c.end)),
    chunk,
    png.subarray(iend.start, iend.end),
  ]);
}

/** The text of the PNG's tEXt chunk `keyword` (undefined: it has none). */
export function pngText(png: Buffer, keyword: string): string | undefined {
  const chunk = chunksOf(png).find((c) => c.type === 'tEXt' && pngTextKeyword(c.data) === keyword);
  return chunk ? chunk.data.toString('latin1', chunk.data.indexOf(0) + 1) : undefined;
}

function pngTextKeyword(data: Buffer): string {
  return data.toString('latin1', 0, Math.max(0, data.indexOf(0)));
}
