import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** gpt-tokenizer's rank tables: one ES module a table, a ~200,000-element array literal. */
const RANKS_MODULE = /[\\/]gpt-tokenizer[\\/]esm[\\/]bpeRanks[\\/]([a-z0-9_]+)\.js$/;

/** The data file beside the bundle holding one table's ranks. */
export function ranksFileName(table: string): string {
  return `sweep-worker.${table}.json`;
}

/**
 * An esbuild plugin that keeps the tokenizer's rank tables out of the sweep worker's bundle:
 * each table is written once, as JSON, beside the bundle (in `outDir`), and the bundle reads
 * it with JSON.parse. The same array either way (JSON holds its strings and byte lists
 * exactly), so every token count is unchanged; what changes is what each worker thread keeps.
 * As code, the table is ~2.4 MB of the source V8 holds for the module's lifetime, its
 * array literals are kept as boilerplate beside the array they built, and parsing it costs
 * a worker ~12 MB of malloc'd zone memory that glibc keeps in the thread's arena after it is
 * freed. JSON.parse keeps none of that. `written` collects the data files' names.
 */
export function ranksAsData(outDir: string, written: string[]): Plugin {
  return {
    name: 'loop-lab-ranks-as-data',
    setup(build) {
      build.onLoad({ filter: RANKS_MODULE }, async (args) => {
        const table = RANKS_MODULE.exec(args.path)![1]!;
        // The table as the package builds it, loaded once here, in the process that bundles.
        // Ignored by Next's bundler: a route handler imports it from node_modules at run time.
        const ranks = (
          (await import(
            /* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(args.path).href
          )) as { default: unknown }
        ).default;
        if (!Array.isArray(ranks)) throw new Error(`${args.path} does not export an array of ranks`);
        const file = ranksFileName(table);
        const temp = path.join(outDir, `${file}.${process.pid}.${Date.now()}.tmp`);
        fs.writeFileSync(temp, JSON.stringify(ranks));
        fs.renameSync(temp, path.join(outDir, file));
        written.push(file);
        return {
          loader: 'js',
          contents:
            "import { readFileSync } from 'node:fs';\n" +
            `export default JSON.parse(readFileSync(new URL(${JSON.stringify(`./${file}`)}, import.meta.url), 'utf8'));\n`,
        };
      });
    },
  };
}
