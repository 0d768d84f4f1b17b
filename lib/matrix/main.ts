import { ANSWER_GUARD_MS, answerCells, runAnswerCell } from './answer-cells';
import { formatMatrix } from './format-table';
import { MCP_GUARD_MS, mcpCells, runMcpCell } from './mcp-cells';
import { MODULE_GUARD_MS, moduleCells, runModuleCell } from './module-cells';
import { quietParseNoise } from './quiet-parse-noise';
import { REPAIR_GUARD_MS, repairCells, runRepairCell } from './repair-cells';
import { runMatrix } from './run-matrix';

/**
 * `npm run matrix`: every fault kind × injection point × vendor × preset on the virtual
 * clock, printed as a table, then the argument repair ladder on every vendor × ladder setting and
 * structured answers on every vendor × answer fault × setting, MCP tool servers (the shipped
 * server, a real process) on every vendor × transport fault × recovery setting, then each
 * mechanism module's own rows.
 * Exits 1 if any cell broke its promise or hung.
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
  // The argument repair ladder: the damaged-args model on every vendor × ladder setting.
  let repairFailed = false;
  process.stdout.write('\nargument repair ladder (damaged-args model)\n');
  for (const cell of repairCells()) {
    const result = await runRepairCell(cell, { guardMs: REPAIR_GUARD_MS });
    repairFailed ||= result.failures.length > 0;
    const promised = `${cell.promise.json.length} JSON + ${cell.promise.coerce.length} coerce repaired, ${cell.promise.reasked} re-asked`;
    process.stdout.write(
      `  ${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${cell.vendor} × ${cell.setting.label}: ${promised}${result.failures.length ? ` — ${result.failures.join('; ')}` : ''}\n`,
    );
  }
  // Structured answers: each answer fault on every vendor × setting (not applicable where a vendor guarantees against it).
  let answerFailed = false;
  process.stdout.write('\nstructured answers (answer faults)\n');
  for (const cell of answerCells()) {
    const label = `${cell.vendor} × ${cell.fault} × ${cell.setting.label}`;
    if ('notApplicable' in cell.promise) {
      process.stdout.write(`  n/a  ${label}: ${cell.promise.notApplicable}\n`);
      continue;
    }
    const result = await runAnswerCell(cell, { guardMs: ANSWER_GUARD_MS });
    answerFailed ||= result.failures.length > 0;
    const promised =
      'steps' in cell.promise
        ? `${cell.promise.steps.join(', ')} → ${cell.promise.reason}`
        : 'no cut answer accepted';
    process.stdout.write(
      `  ${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${label}: ${promised}${result.failures.length ? ` — ${result.failures.join('; ')}` : ''}\n`,
    );
  }
  // MCP tool servers: each transport fault on the shipped server, on every vendor × recovery setting.
  let mcpFailed = false;
  process.stdout.write('\nMCP tool servers (transport faults)\n');
  for (const cell of mcpCells()) {
    const label = `${cell.vendor} × ${cell.fault.fault} (${cell.fault.transport}) × ${cell.setting.label}`;
    const result = await runMcpCell(cell, { guardMs: MCP_GUARD_MS });
    mcpFailed ||= result.failures.length > 0;
    process.stdout.write(
      `  ${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${label}: ${cell.promise.steps.join(', ')}${result.failures.length ? ` — ${result.failures.join('; ')}` : ''}\n`,
    );
  }
  // Each mechanism module's own rows: its cells on every vendor × preset, held to the promise it states.
  let moduleFailed = false;
  for (const rows of moduleCells()) {
    process.stdout.write(`\n${rows.title}\n`);
    for (const cell of rows.cells) {
      if ('notApplicable' in cell) {
        process.stdout.write(`  n/a  ${cell.label}: ${cell.notApplicable}\n`);
        continue;
      }
      const result = await runModuleCell(cell, { guardMs: MODULE_GUARD_MS });
      moduleFailed ||= result.failures.length > 0;
      process.stdout.write(
        `  ${result.failures.length === 0 ? 'ok  ' : 'FAIL'} ${cell.label}: ${cell.promise}${result.failures.length ? ` — ${result.failures.join('; ')}` : ''}\n`,
      );
    }
  }
  const failed =
    mcpFailed ||
    repairFailed ||
    answerFailed ||
    moduleFailed ||
    report.results.some((r) => !r.verdict.passed) ||
    report.toolResults.some((r) => !r.passed) ||
    report.cacheResults.some((r) => !r.passed);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
