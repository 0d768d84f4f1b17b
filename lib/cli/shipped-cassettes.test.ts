import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingConfig, parseCassette } from '@/lib/cassettes';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import {
  cassetteText,
  recordShippedCassette,
  SHIPPED_CASSETTE_DIR,
  SHIPPED_CASSETTES,
} from './shipped-cassettes';

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
      expect(cassetteText(await recordShippedCassette(spec)), `${path} is stale: run npm run cassettes`).toBe(
        shipped,
      );

      const cassette = parseCassette(shipped);
      expect(cassette.source.kind).toBe('simulated');
      expect(cassette.source.note).toMatch(/strict simulated vendor .* not a real one/);

      // It keeps the config it was recorded with; replayed from that config alone, it stays on the recording.
      expect(cassette.version).toBe(2);
      expect(cassette.config).toEqual(RunConfigSchema.parse(spec.config));
      expect(missingConfig(cassette)).toBeUndefined();
      const events: RunEvent[] = [];
      const config = RunConfigSchema.parse({
        ...cassette.config,
        provider: { vendor: cassette.source.vendor, model: cassette.source.model },
        replay: { cassette: spec.name },
      });
      await launchRun({ runId: 'replay', config, cassette, onEvent: (e) => events.push(e) }).done;
      expect(events.filter((e) => e.event === 'off_recording')).toEqual([]);
      expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn', complete: true });
      expect(events.filter((e) => e.event === 'model_request')).toHaveLength(cassette.exchanges.length);
    });
  }

  it('a version 1 file (no config) is still read, and says what it is missing', () => {
    const { config: _config, ...rest } = parseCassette(
      readFileSync(join(SHIPPED_CASSETTE_DIR, `${SHIPPED_CASSETTES[0]!.name}.cassette.json`), 'utf8'),
    );
    const old = parseCassette(JSON.stringify({ ...rest, version: 1 }));
    expect(old.config).toBeUndefined();
    expect(missingConfig(old)).toMatch(
      /^the cassette does not say what it was recorded with \(a version 1 file, from before cassettes kept their config\)/,
    );
    expect(() => parseCassette(JSON.stringify({ ...rest, version: 3 }))).toThrow(
      'version 3: this Loop Lab reads cassette versions 1 and 2',
    );
  });
});
