import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs a bench entry the way sweep workers run the engine: bundled into one file with
 * esbuild (as `lib/sweeps/worker-bundle.ts` builds the worker) and started in a Node process
 * of its own. Under tsx every closure the project's code creates is also named at run time
 * (esbuild's keepNames), which workers never pay; a figure about a worker's CPU is measured
 * without it. Returns what the entry printed on stdout; its stderr is shown only on failure.
 */
export async function runBundled(options: { entry: string; env?: Record<string, string> }): Promise<string> {
  const root = process.cwd();
  const { build } = await import('esbuild');
  // Inside node_modules, as the worker bundle is, so its external packages resolve.
  const dir = path.join(root, 'node_modules', '.cache', 'loop-lab');
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `bench-${path.basename(options.entry, '.ts')}-${process.pid}.mjs`);
  try {
    await build({
      absWorkingDir: root,
      entryPoints: [options.entry],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: ['react-server'],
      tsconfig: path.join(root, 'tsconfig.json'),
      external: ['better-sqlite3', 'piscina', 'tsx', 'esbuild', 'bullmq', 'ioredis'],
      banner: {
        js: "import { createRequire as __loopLabRequire } from 'node:module'; const require = __loopLabRequire(import.meta.url);",
      },
      logLevel: 'silent',
    });
    return await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [out],
        { cwd: root, env: { ...process.env, ...options.env }, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`${options.entry} failed: ${error.message}\n${stderr.slice(-4000)}`));
          else resolve(stdout);
        },
      );
    });
  } finally {
    fs.rmSync(out, { force: true });
  }
}
