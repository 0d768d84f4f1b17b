import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CassetteSchema, type CassetteExchange } from '@/lib/protocol';
import { uploadedTaskDir } from '../data-dir';
import { sampleConfig } from '../sample-run.testkit';
import type { StoreBackend } from './store-backends.testkit';

/** The exchanges of a shipped cassette, as a run's recorder hands them on. */
const shippedExchanges = (): CassetteExchange[] =>
  CassetteSchema.parse(
    JSON.parse(
      fs.readFileSync(
        path.join(process.cwd(), 'cassettes/explain-project.sim-anthropic.cassette.json'),
        'utf8',
      ),
    ),
  ).exchanges;

/**
 * What a process on any machine needs of the store to run an uploaded task or save a run's
 * cassette: the uploaded files themselves (not only the data folder where they were uploaded),
 * and each run's model traffic within its bounds.
 */
export function sharedFilesContract(backend: () => StoreBackend): void {
  describe('uploaded task files in the store', () => {
    it('are read back by their sha256 from a new opening after the data folder lost them, kept once', async () => {
      const first = await backend().open({ now: () => 7 });
      const files = {
        'task.md': 'Fix it.\n',
        'src/a.js': 'export const a = 1;\n',
        'tests/a.test.js': 'ok\n',
      };
      const sha256 = createHash('sha256').update('three files').digest('hex');
      const upload = { sha256, files, task_id: 'fix-it', title: 'Fix it', summary: 's', hidden: 0 };
      const one = await first.taskUploads.saveTaskUpload(upload);
      const two = await first.taskUploads.saveTaskUpload(upload);
      expect(two.id).not.toBe(one.id);
      await first.close();
      fs.rmSync(path.join(backend().dir, 'tasks'), { recursive: true, force: true });

      const again = await backend().open();
      expect(await again.taskUploads.readTaskFiles(sha256)).toEqual(files);
      expect(await again.taskUploads.readTaskFiles('0'.repeat(64))).toBeUndefined();
      expect((await again.taskUploads.getTaskUpload(one.id))?.sha256).toBe(sha256);
      expect(fs.existsSync(uploadedTaskDir(sha256, backend().dir))).toBe(false);
    });
  });

  describe("each run's traffic", () => {
    it('is kept in request order and read back by a new opening', async () => {
      const { runs, wire, close } = await backend().open();
      await runs.createRun({ id: 't', config: sampleConfig() });
      const exchanges = shippedExchanges();
      expect(exchanges.length).toBeGreaterThan(1);
      const bounds = { maxBytes: 1024 * 1024 * 1024, maxExchanges: 100 };
      // Handed on as responses end: not always in request order.
      for (const exchange of [...exchanges].reverse())
        await wire.keepTraffic({ runId: 't', exchange, bounds });
      await close();
      const again = await backend().open();
      expect(await again.wire.readTraffic('t')).toEqual({ exchanges, truncated: false });
      expect(await again.wire.readTraffic('nobody')).toEqual({ exchanges: [], truncated: false });
    });

    it('past its bytes or its count, keeps that request and every later one by number only: cut', async () => {
      const { runs, wire } = await backend().open();
      for (const id of ['bytes', 'count']) await runs.createRun({ id, config: sampleConfig() });
      const exchanges = shippedExchanges().slice(0, 3);
      expect(exchanges).toHaveLength(3);
      const size = (e: CassetteExchange): number => Buffer.byteLength(JSON.stringify(e));
      // Room for the first two by bytes: the third is cut, and so is a small one after it.
      const bytes = { maxBytes: size(exchanges[0]!) + size(exchanges[1]!), maxExchanges: 100 };
      for (const exchange of exchanges) await wire.keepTraffic({ runId: 'bytes', exchange, bounds: bytes });
      const tiny = { ...exchanges[0]!, n: 99 };
      await wire.keepTraffic({ runId: 'bytes', exchange: tiny, bounds: { ...bytes, maxBytes: 1e9 } });
      expect(await wire.readTraffic('bytes')).toEqual({ exchanges: exchanges.slice(0, 2), truncated: true });
      // Room for one by count.
      const count = { maxBytes: 1e9, maxExchanges: 1 };
      for (const exchange of exchanges) await wire.keepTraffic({ runId: 'count', exchange, bounds: count });
      expect(await wire.readTraffic('count')).toEqual({ exchanges: exchanges.slice(0, 1), truncated: true });
    });
  });
}
