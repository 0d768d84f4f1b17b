import {
  dialectOf,
  resolveRecovery,
  type PresetId,
  type RunConfigInput,
  type RunEvent,
} from '@/lib/protocol';
import type { MatrixVendor } from './baseline';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { MATRIX_TASK } from './matrix-config';
import { runGuarded } from './run-guarded';

/**
 * The fault matrix's tool-call rows: what happens between a turn's tool calls and the next
 * request, on each vendor × preset. `interrupted`: the first read's result never comes back;
 * `parallel`: the model asks for five looking calls in one turn.
 */
export const TOOL_ROWS = ['interrupted', 'parallel'] as const;
export type ToolRow = (typeof TOOL_ROWS)[number];

/** What a tool cell's effective recovery config promises. */
export interface ToolPromise {
  ending: 'completes' | 'model_error' | 'max_iterations';
  /** interrupted: synthetic_results / sent_unanswered (400); parallel: at_once / one_by_one. */
  path: 'synthetic_results' | 'sent_unanswered' | 'at_once' | 'one_by_one';
  rule: string;
}

export interface ToolCell {
  row: ToolRow;
  vendor: MatrixVendor;
  preset: PresetId;
  promise: ToolPromise;
}

export interface ToolCellResult {
  cell: ToolCell;
  observed: { ending: string; path: ToolPromise['path'] | 'none' };
  passed: boolean;
  hung: boolean;
  failures: string[];
  wallMs: number;
}

/** Every tool row × vendor × preset, each with the promise its preset makes. */
export function buildToolCells(): ToolCell[] {
  const cells: ToolCell[] = [];
  for (const row of TOOL_ROWS) {
    for (const vendor of MATRIX_VENDORS) {
      for (const preset of MATRIX_PRESETS)
        cells.push({ row, vendor, preset, promise: toolPromise(row, preset) });
    }
  }
  return cells;
}

function toolPromise(row: ToolRow, preset: PresetId): ToolPromise {
  const { tools } = resolveRecovery(preset);
  if (row === 'interrupted') {
    return tools.repairInterrupted
      ? {
          ending: 'completes',
          path: 'synthetic_results',
          rule: 'repairInterrupted on: the dangling call gets a synthetic error result and the run goes on',
        }
      : {
          ending: 'model_error',
          path: 'sent_unanswered',
          rule: 'repairInterrupted off: the call goes unanswered and the strict vendor answers 400',
        };
  }
  // Two turns: the five calls, then the request that carries their results (and the next call).
  return tools.maxParallel > 1
    ? {
        ending: 'max_iterations',
        path: 'at_once',
        rule: `maxParallel ${tools.maxParallel}: the looking calls run at once, results in call order`,
      }
    : {
        ending: 'max_iterations',
        path: 'one_by_one',
        rule: 'maxParallel 1: the calls run one after another, results in call order',
      };
}

/**
 * A tool cell's run config: the matrix's short task for the cut read; for the parallel reads
 * the scenario's work, stopped after the turn that answers them (each further turn would run
 * the scenario's check in a child process).
 */
export function toolCellConfig(cell: ToolCell): RunConfigInput {
  const base = { provider: { vendor: cell.vendor }, preset: cell.preset, clock: 'virtual' as const, seed: 1 };
  if (cell.row === 'interrupted') {
    return {
      ...base,
      task: MATRIX_TASK,
      faults: {
        rules: [],
        tools: [{ id: 'matrix-cut', tool: 'read_file', enabled: true, kind: 'interrupt', times: 1 }],
      },
    };
  }
  return {
    ...base,
    policy: 'parallel-reads',
    budgets: { maxIterations: 2 },
    faults: { rules: [], tools: [] },
  };
}

const VENDOR_400: Record<MatrixVendor, RegExp> = {
  'sim-anthropic': /`tool_use` ids were found without `tool_result` blocks immediately after/,
  'sim-openai':
    /An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'/,
  'sim-openai-responses': /No tool output found for function call/,
};

/** Runs one tool cell through the real runtime and checks it against its promise. */
export async function runToolCell(cell: ToolCell, options: { guardMs: number }): Promise<ToolCellResult> {
  const bodies: string[] = [];
  const run = await runGuarded({
    guardMs: options.guardMs,
    runId: `matrix-tools-${cell.row}-${cell.vendor}-${cell.preset}`,
    config: toolCellConfig(cell),
    onVendorRequest: ({ body }) => bodies.push(body),
  });
  const { events } = run;
  const failures: string[] = [];
  if (run.hung) failures.push('hang: the run did not end within its wall-time guard');
  const last = events.at(-1);
  const ending =
    last?.event !== 'terminate'
      ? 'no terminate'
      : last.reason === 'end_turn' && last.complete
        ? 'completes'
        : last.reason;
  if (ending !== cell.promise.ending) failures.push(`ended ${ending}, promised ${cell.promise.ending}`);
  const path = cell.row === 'interrupted' ? interruptedPath(events, cell, failures) : parallelPath(events);
  if (path !== cell.promise.path) failures.push(`path ${path}, promised ${cell.promise.path}`);
  const misordered = bodies.flatMap((body) => resultOrderFailures(cell.vendor, body));
  failures.push(...new Set(misordered));
  return {
    cell,
    observed: { ending, path },
    passed: failures.length === 0,
    hung: run.hung,
    failures,
    wallMs: run.wallMs,
  };
}

function interruptedPath(
  events: readonly RunEvent[],
  cell: ToolCell,
  failures: string[],
): ToolCellResult['observed']['path'] {
  if (!events.some((e) => e.event === 'tool_call' && e.status === 'interrupted'))
    failures.push('no call was interrupted');
  const dangling = events.filter((e) => e.event === 'dangling_calls');
  if (dangling.length !== 1) failures.push(`${dangling.length} dangling_calls events (exactly one expected)`);
  const error = events.find((e) => e.event === 'model_error');
  if (
    cell.promise.path === 'sent_unanswered' &&
    !(error?.event === 'model_error' && error.status === 400 && VENDOR_400[cell.vendor].test(error.message))
  ) {
    failures.push(
      `the strict vendor's 400 for an unanswered call did not come (${error?.event === 'model_error' ? error.message : 'no model error'})`,
    );
  }
  const first = dangling[0];
  return first?.event === 'dangling_calls' ? first.next : 'none';
}

function parallelPath(events: readonly RunEvent[]): ToolCellResult['observed']['path'] {
  const batches = events.filter((e) => e.event === 'tool_batch');
  if (batches.length === 0) return 'none';
  return batches.some((e) => e.event === 'tool_batch' && e.parallel) ? 'at_once' : 'one_by_one';
}

/** In the request as sent: every turn's results answer its calls in the order they were made, in the place the dialect requires. */
export function resultOrderFailures(vendor: MatrixVendor, body: string): string[] {
  const messages = (JSON.parse(body) as { messages?: Record<string, unknown>[] }).messages ?? [];
  const failures: string[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    let calls: string[];
    let answers: string[];
    if (dialectOf(vendor) === 'openai') {
      calls = Array.isArray(message.tool_calls) ? message.tool_calls.map((c: { id: string }) => c.id) : [];
      answers = [];
      for (let j = i + 1; messages[j]?.role === 'tool'; j++) answers.push(String(messages[j]!.tool_call_id));
    } else {
      const blocks = Array.isArray(message.content)
        ? (message.content as { type: string; id?: string; tool_use_id?: string }[])
        : [];
      calls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!);
      const next = messages[i + 1];
      const nextBlocks =
        next && Array.isArray(next.content) ? (next.content as { type: string; tool_use_id?: string }[]) : [];
      answers = nextBlocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!);
    }
    if (calls.length > 1 && answers.length === calls.length && answers.join() !== calls.join()) {
      failures.push(`results of message ${i} in another order than its calls`);
    }
  });
  return failures;
}
