import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { parseCassette } from '@/lib/cassettes';
import type { Cassette } from '@/lib/protocol';
import type { CassetteSummary } from '@/lib/protocol/http';
import { getCassetteStore } from '@/lib/store';

/** A shipped cassette's id: this prefix and its file name without `.cassette.json`. */
export const SHIPPED_PREFIX = 'shipped:';
const SHIPPED_DIR = 'cassettes';
const SUFFIX = '.cassette.json';

/** The cassettes the repository ships (`npm run cassettes` writes them), read from the project folder. */
function shipped(): Array<{ summary: CassetteSummary; cassette: Cassette }> {
  const dir = path.join(process.cwd(), SHIPPED_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(SUFFIX));
  } catch {
    return [];
  }
  return names.sort().flatMap((file) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    try {
      const cassette = parseCassette(text);
      const name = file.slice(0, -SUFFIX.length);
      return [
        {
          summary: {
            id: `${SHIPPED_PREFIX}${name}`,
            name,
            source: cassette.source,
            exchanges: cassette.exchanges.length,
            bytes: Buffer.byteLength(text),
            shipped: true,
            truncated: cassette.truncated ?? false,
            version: cassette.version,
            ...(cassette.config ? { config: cassette.config } : {}),
          },
          cassette,
        },
      ];
    } catch (error) {
      console.error(`[loop-lab] shipped cassette ${file} does not parse: ${(error as Error).message}`);
      return [];
    }
  });
}

/** Every cassette a run can replay: the shipped ones, then the saved and imported ones, newest first. */
export async function listAllCassettes(): Promise<CassetteSummary[]> {
  return [...shipped().map((c) => c.summary), ...(await getCassetteStore().listCassettes())];
}

/** One cassette by id (shipped or stored), or undefined. */
export async function findCassette(
  id: string,
): Promise<{ summary: CassetteSummary; cassette: Cassette } | undefined> {
  if (id.startsWith(SHIPPED_PREFIX)) return shipped().find((c) => c.summary.id === id);
  return getCassetteStore().getCassette(id);
}
