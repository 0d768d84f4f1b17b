import { formatMatrix } from './format-table';
import { quietParseNoise } from './quiet-parse-noise';
import { runMatrix } from './run-matrix';

/**
 * `npm run matrix`: every fault kind × injection point × vendor × preset on the virtual
 * clock, printed as a table. Exits 1 if any cell broke its promise or hung.
 */
async function main(): Promise<void> {
  const restore = quietParseNoise();
  let report;
  try {
    report = await runMatrix();
  } finally {
    restore();
  }
  process.stdout.write(`${formatMatrix(report)}\n`);
  const failed = report.results.some((r) => !r.verdict.passed) || report.toolResults.some((r) => !r.passed);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
