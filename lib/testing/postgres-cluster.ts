import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './local-process';

/** A throwaway Postgres cluster a test started: a temp folder, 127.0.0.1 only, a free port. */
export interface PostgresCluster {
  port: number;
  /** A new, empty database on the cluster (its text sorted by ICU's en-US collation); its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const ROOT = '/usr/lib/postgresql';

/** The newest installed version's bin folder (POSTGRES_BIN_DIR when set), or why there is none. */
export function postgresBinDir(): string {
  const given = process.env.POSTGRES_BIN_DIR;
  if (given) {
    if (!fs.existsSync(path.join(given, 'postgres')))
      throw new Error(`POSTGRES_BIN_DIR=${given} has no postgres binary`);
    return given;
  }
  const versions = fs.existsSync(ROOT)
    ? fs
        .readdirSync(ROOT)
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(ROOT, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      `no Postgres server under ${ROOT}/<version>/bin: install Debian's postgresql ` +
        '(node lib/testing/ensure-postgres.mjs does, as root) or set POSTGRES_BIN_DIR',
    );
  return path.join(ROOT, versions[0]!, 'bin');
}

/**
 * Starts a throwaway cluster: initdb in a temp folder (trust auth, no locale, no fsync), then the
 * server on a free 127.0.0.1 port with its socket in that folder, durability off (a test's data
 * dies with it). Postgres refuses to run as root: as root, initdb and the server run as the
 * `postgres` user (`runuser -u postgres --`) in a folder it owns. Throws saying why when it
 * cannot start. `stop()` stops it (fast shutdown) and removes the folder.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-pg-'));
  const data = path.join(root, 'data');
  const log = path.join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    fs.chownSync(root, Number(ids), Number(gid));
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: root });
    if (result.status !== 0)
      throw new Error(
        `${path.basename(cmd)} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr || result.stdout).trim().slice(-2000)}`,
      );
  };
  const remove = () => fs.rmSync(root, { recursive: true, force: true });

  let port = 0;
  try {
    run(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'loop_lab',
      '--auth=trust',
      '--no-locale',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    port = await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${root}'`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  } catch (error) {
    const serverLog = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().slice(-2000) : '';
    remove();
    throw new Error(
      `could not start a test Postgres: ${(error as Error).message}${serverLog ? `\nserver log:\n${serverLog}` : ''}`,
    );
  }

  const admin = `postgres://loop_lab@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    port,
    async createDatabase() {
      databases += 1;
      const name = `store_test_${databases}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        // With a linguistic collation (ICU's en-US), as most servers' databases have: the store
        // must order text as SQLite does ("Zed" before "alpha") whatever the database's collation.
        await client.query(
          `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
        );
      } finally {
        await client.end();
      }
      return `postgres://loop_lab@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        remove();
      }
    },
  };
}
