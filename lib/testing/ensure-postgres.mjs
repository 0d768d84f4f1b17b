// The store tests run the same suite on SQLite and on a real Postgres (lib/testing/postgres-cluster.ts
// starts a throwaway cluster of Debian's postgresql on a free localhost port): find its binaries,
// install the package, or say what to do.
import { existsSync, readdirSync } from 'node:fs';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

const ROOT = '/usr/lib/postgresql';
/**
 * Where Debian puts each version's initdb (/usr/lib/postgresql/<version>/bin/initdb): those
 * installed, and those a Debian release may install (checked again after apt-get).
 */
const versions = new Set(existsSync(ROOT) ? readdirSync(ROOT).filter((v) => /^\d+$/.test(v)) : []);
for (let v = 13; v <= 20; v += 1) versions.add(String(v));
const initdbs = [...versions].sort((a, b) => Number(b) - Number(a)).map((v) => `${ROOT}/${v}/bin/initdb`);

const bin = process.env.POSTGRES_BIN_DIR;
ensureDebianPackage({
  candidates: bin ? [`${bin}/initdb`] : initdbs,
  pkg: 'postgresql',
  what: 'postgresql',
  instructions:
    `The store tests need Postgres's initdb and postgres under ${bin ?? `${ROOT}/<version>/bin`} (or set POSTGRES_BIN_DIR).\n` +
    'Install them with:  sudo apt-get install -y postgresql\n' +
    'The tests start and stop their own cluster in a temp folder on a localhost port; nothing else is configured.',
});
