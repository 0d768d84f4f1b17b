import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCassette } from '@/lib/cassettes';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { cassetteText, recordShippedCassette, SHIPPED_CASSETTE_DIR, SHIPPED_CASSETTES } from './shipped-cassettes';

/**
 * The shipped cassettes are what `npm run cassettes` writes today (a change to the simulated
 * vendors, the SDK or the engine that changes the traffic fails here until they are rewritten),
 * they say they come from a simulated vendor, and each replays to the end without leaving it.
 */
describe('shipped cassettes', () => {
  for (const spec of SHIPPED_CASSETTES) {
    it(`${spec.name} is what the script records, labelled simulated, and replays on its own`, async () => {
      const path = join(SHIPPED_CASSETTE_DIR, `${spec.name}.cassette.json`);
      const shipped = readFileSync(path, 'utf8');
      expect(cassetteText(await recordShippedCassette(spec)), `${path} is stale: run npm run cassettes`).toBe(shipped);

      const cassette = parseCassette(shipped);
      expect(cassette.source.kind).toBe('simulated');
      expect(cassette.source.note).toMatch(/strict simulated vendor .* not a real one/);

      const events: RunEvent[] = [];
      const config = RunConfigSchema.parse({
        ...spec.config,
        provider: { vendor: cassette.source.vendor, model: cassette.source.model },
        replay: { cassette: spec.name },
      });
      await launchRun({ runId: 'replay', config, cassette, onEvent: (e) => events.push(e) }).done;
      expect(events.filter((e) => e.event === 'off_recording')).toEqual([]);
      expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn', complete: true });
      expect(events.filter((e) => e.event === 'model_request')).toHaveLength(cassette.exchanges.length);
    });
  }
});
