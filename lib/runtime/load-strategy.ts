import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { MechanismModule, StrategyFile } from '@/lib/engine/mechanism-port';
import type { StrategyRef } from '@/lib/protocol';

/**
 * A strategy of one's own, loaded from a TypeScript file for the CLI and the sweep runner (the
 * web API refuses a config that names one: lib/protocol/http). The file is pinned by the sha256
 * of its bytes: a run's config records both, and a file changed since is refused, so a run stays
 * reproducible from its config and seed.
 */

export class StrategyError extends Error {
  override readonly name = 'StrategyError';
}

/** The file's ref: its name as given and the sha256 of its bytes. */
export function pinStrategy(file: string): StrategyRef {
  return { file, sha256: sha256(readStrategy(file)) };
}

/**
 * The strategy a ref names, on the mechanism port. Compiled with esbuild (it may import the
 * port's helpers by the project's `@/` paths), so it loads the same in the CLI and in a sweep's
 * bundled worker threads.
 */
export async function loadStrategy(ref: StrategyRef): Promise<MechanismModule<never>> {
  const bytes = readStrategy(ref.file);
  const actual = sha256(bytes);
  if (actual !== ref.sha256)
    throw new StrategyError(
      `strategy ${ref.file} changed since the run was configured (sha256 ${actual.slice(0, 12)}…, the config says ${ref.sha256.slice(0, 12)}…): pin it again or restore the file`,
    );
  const out = await build({
    entryPoints: [resolve(ref.file)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  }).catch((error: unknown) => {
    throw new StrategyError(`strategy ${ref.file} does not compile: ${(error as Error).message}`);
  });
  const dir = mkdtempSync(join(tmpdir(), 'loop-lab-strategy-'));
  let loaded: { default?: unknown };
  try {
    const path = join(dir, 'strategy.mjs');
    writeFileSync(path, out.outputFiles[0]!.contents);
    loaded = (await import(/* @vite-ignore */ pathToFileURL(path).href)) as { default?: unknown };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const strategy = loaded.default as Partial<StrategyFile<unknown>> | undefined;
  if (!strategy || typeof strategy.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,60}$/.test(strategy.name))
    throw new StrategyError(
      `strategy ${ref.file}: its default export needs a name of lower-case letters, digits and "-" (export default defineStrategy({ name, create }))`,
    );
  if (typeof strategy.create !== 'function')
    throw new StrategyError(`strategy ${ref.file}: its default export needs create(), called once per run`);
  const { name, create, configOf } = strategy as StrategyFile<unknown>;
  return {
    id: `strategy:${name}`,
    configOf: configOf ?? ((recovery) => recovery),
    create,
  } as MechanismModule<unknown> as MechanismModule<never>;
}

function readStrategy(file: string): Buffer {
  try {
    return readFileSync(resolve(file));
  } catch {
    throw new StrategyError(`strategy ${file}: no such file (a path relative to ${process.cwd()})`);
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
