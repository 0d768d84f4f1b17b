import { describe, expect, it } from 'vitest';
import { SseRecordReader, type SseRecord } from './sse-records';
import { loadFixture } from './testing/fixtures';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

function chunked(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

async function readAll(chunks: Uint8Array[]): Promise<SseRecord[]> {
  const reader = new SseRecordReader(streamOf(chunks).getReader());
  const records: SseRecord[] = [];
  for (let r = await reader.next(); r; r = await reader.next()) records.push(r);
  return records;
}

describe('SseRecordReader', () => {
  const sse = loadFixture('anthropic-thinking-text-tool');

  it('splits a vendor stream into records and re-emits it byte for byte', async () => {
    const records = await readAll(chunked(sse, 4096));
    expect(records).toHaveLength(18);
    expect(records.map((r) => r.raw).join('')).toBe(sse);
    expect(records[0]).toMatchObject({ event: 'message_start', commentOnly: false, incomplete: false });
    expect(records[2]).toMatchObject({ event: 'ping', data: '{"type": "ping"}' });
  });

  it('gives the same records whatever the chunk size (records and UTF-8 split anywhere)', async () => {
    const whole = await readAll(chunked(sse, 1 << 20));
    for (const size of [1, 2, 3, 7, 64]) {
      const parts = await readAll(chunked(sse, size));
      expect(parts).toEqual(whole);
    }
    expect(whole.some((r) => r.data?.includes('—'))).toBe(true);
  });

  it('accepts \\r\\n and \\r line ends and keeps them in raw', async () => {
    for (const eol of ['\r\n', '\r']) {
      const text = sse.replace(/\n/g, eol);
      const records = await readAll(chunked(text, 5));
      expect(records).toHaveLength(18);
      expect(records.map((r) => r.raw).join('')).toBe(text);
      expect(records[3]?.data).toContain('thinking_delta');
    }
  });

  it('joins multi-line data, strips one space after the colon, flags comments and a cut tail', async () => {
    const text = ': keepalive\n\nevent: x\ndata:a\ndata:  b\n\ndata: {"cut":';
    const records = await readAll(chunked(text, 3));
    expect(records).toEqual([
      { raw: ': keepalive\n\n', commentOnly: true, incomplete: false },
      {
        raw: 'event: x\ndata:a\ndata:  b\n\n',
        event: 'x',
        data: 'a\n b',
        commentOnly: false,
        incomplete: false,
      },
      { raw: 'data: {"cut":', data: '{"cut":', commentOnly: false, incomplete: true },
    ]);
  });
});
