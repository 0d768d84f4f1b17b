import fs from 'node:fs';
import path from 'node:path';
import { ranksAsData } from './ranks-as-data';
import { serverEnv } from '@/lib/config/server-env';

/** The project root: where lib/ and node_modules/ are (LOOP_LAB_ROOT when the process starts elsewhere). */
export function projectRoot(): string {
  return serverEnv().root ?? process.cwd();
}

/** A worker thread's code as one bundled file: its entry (a project path) and where the bundle goes. */
export interface WorkerBundleSpec {
  entry: string;
  out: string;
}

/** The sweep pool's worker (lib/sweeps/sweep-worker-entry.ts). */
const SWEEP_WORKER: WorkerBundleSpec = {
  entry: path.join('lib', 'sweeps', 'sweep-worker-entry.ts'),
  /** Inside node_modules, so the bundle's few external imports resolve from the project. */
  out: path.join('node_modules', '.cache', 'loop-lab', 'sweep-worker.mjs'),
};
const BUILDER = path.join('lib', 'sweeps', 'worker-bundle.ts');
/** The builder's own parts: a change to any of them makes the bundle on disk stale. */
const BUILDER_PARTS = [BUILDER, path.join('lib', 'sweeps', 'ranks-as-data.ts')];

const building = new Map<string, Promise<string>>();

/**
 * The sweep worker as one JavaScript file: the engine and its packages bundled with esbuild
 * (which ships with tsx), so a worker thread starts by loading one file instead of compiling
 * ~200 TypeScript modules through tsx's loader and resolving ~800 package files one by one
 * (measured in `npm run bench`: "worker start"). Built once and reused until a source file
 * it was built from changes (the list of inputs is kept beside it); one build per process.
 * Not bundled by Next (esbuild is a server external): route handlers reach it at run time.
 */
export function sweepWorkerBundle(root = projectRoot()): Promise<string> {
  return workerBundle(SWEEP_WORKER, root);
}

/** Any worker's bundle, built as the sweep worker's is: once per process and entry, reused while fresh. */
export function workerBundle(spec: WorkerBundleSpec, root = projectRoot()): Promise<string> {
  const key = `${root}\0${spec.out}`;
  let file = building.get(key);
  if (!file) {
    file = bundleWorker(root, spec);
    building.set(key, file);
    // A failed build is tried again next time, not remembered.
    file.catch(() => building.delete(key));
  }
  return file;
}

/** Builds the sweep worker's bundle unless the one on disk is fresh; returns its path. */
export function bundleSweepWorker(root: string): Promise<string> {
  return bundleWorker(root, SWEEP_WORKER);
}

/** Builds a worker's bundle unless the one on disk is fresh; returns its path. */
export async function bundleWorker(
  root: string,
  { entry: ENTRY, out: OUT }: WorkerBundleSpec,
): Promise<string> {
  const entry = path.join(root, ENTRY);
  if (!fs.existsSync(entry)) {
    throw new Error(
      `the worker ${entry} is missing; start Loop Lab from its project folder or set LOOP_LAB_ROOT`,
    );
  }
  const out = path.join(root, OUT);
  if (isFresh(root, out)) return out;
  const { build } = await import('esbuild');
  const startedAt = new Date();
  // Written under a name of its own, then renamed: two processes building at once never load a half-written file.
  const temp = `${out}.${process.pid}.${Date.now()}.tmp`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const data: string[] = [];
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    // Native addons and packages that load files by path stay outside, resolved from node_modules.
    external: ['better-sqlite3', 'piscina', 'tsx', 'esbuild', 'bullmq', 'ioredis'],
    // CommonJS packages inside an ES module bundle call require: give them Node's.
    banner: {
      js: "import { createRequire as __loopLabRequire } from 'node:module'; const require = __loopLabRequire(import.meta.url);",
    },
    // Without comments and indentation: every worker keeps its module's source in its heap
    // (measured: 6.6 → 4.9 MB of bundle, 31.5 → 28.2 MB of large objects a worker). Names are kept.
    minifyWhitespace: true,
    metafile: true,
    logLevel: 'silent',
    // The tokenizer's tables as JSON files beside the bundle, not as code in it.
    plugins: [ranksAsData(path.dirname(out), data)],
  });
  // Project sources by name; packages through the lock file, which changes when any of them does.
  // This file too: a change to how the bundle is built makes the one on disk stale.
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('node_modules/')),
    'package-lock.json',
    'tsconfig.json',
    ...BUILDER_PARTS,
  ].filter((file) => fs.existsSync(path.join(root, file)));
  // Dated from when the build began, so a source saved during the build makes it stale.
  fs.utimesSync(temp, startedAt, startedAt);
  fs.writeFileSync(`${temp}.inputs.json`, JSON.stringify({ inputs, data } satisfies BuildRecord));
  fs.renameSync(`${temp}.inputs.json`, `${out}.inputs.json`);
  fs.renameSync(temp, out);
  return out;
}

/** What the bundle was built from (project paths) and the data files beside it that it reads (names). */
interface BuildRecord {
  inputs: string[];
  data: string[];
}

/** The bundle and its data files exist and no project source it was built from is newer (or gone). */
function isFresh(root: string, out: string): boolean {
  try {
    const builtAt = fs.statSync(out).mtimeMs;
    const { inputs, data } = JSON.parse(fs.readFileSync(`${out}.inputs.json`, 'utf8')) as BuildRecord;
    if (!data.every((file) => fs.existsSync(path.join(path.dirname(out), file)))) return false;
    // Built by a builder that did not list itself: made with other options, so stale.
    if (!inputs.includes(BUILDER) && fs.existsSync(path.join(root, BUILDER))) return false;
    return inputs.every((file) => fs.statSync(path.join(root, file)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}
