import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cassetteText,
  recordShippedCassette,
  SHIPPED_CASSETTE_DIR,
  SHIPPED_CASSETTES,
} from './shipped-cassettes';

/** `npm run cassettes`: records the shipped cassettes again from the simulated vendors. */
mkdirSync(SHIPPED_CASSETTE_DIR, { recursive: true });
for (const spec of SHIPPED_CASSETTES) {
  const cassette = await recordShippedCassette(spec);
  const path = join(SHIPPED_CASSETTE_DIR, `${spec.name}.cassette.json`);
  writeFileSync(path, cassetteText(cassette));
  console.log(`wrote ${path} (${cassette.exchanges.length} exchanges)`);
}
