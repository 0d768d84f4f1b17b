import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { formatMs, PRESETS } from '@/lib/protocol';
import { foldTotals } from '@/lib/protocol/run-totals';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { type Check, end, n, of, refusedOnEveryResend, toolCalls } from './support.testkit';

/** The claims of the lessons on tool calls: loop guards, failure budgets, repairs, calls side by side, a tool server that drops. */
export const TOOL_CLAIMS: Record<string, Check> = {
  'loop-guard': (lesson, { on, off }) => {
    const blocked = of(on, 'tool_guard').filter((g) => g.kind === 'blocked');
    expect(blocked.map((g) => g.reason)).toEqual([
      `call #${DEFAULTS.blockRepeatAt} of read_file with the same arguments`,
      `call #${DEFAULTS.blockRepeatAt + 1} of read_file with the same arguments`,
    ]);
    expect(of(on, 'tool_guard').find((g) => g.kind === 'warning')!.consecutive_failures).toBe(
      DEFAULTS.warnAfterFailures,
    );
    expect(
      toolCalls(on, 'read_file')
        .slice(0, 4)
        .map((c) => c.status),
    ).toEqual(['error', 'error', 'blocked', 'blocked']);
    expect(
      toolCalls(off, 'read_file')
        .slice(0, 4)
        .map((c) => c.status),
    ).toEqual(['error', 'error', 'error', 'error']);
    const extra = foldTotals(on).inputTokens - foldTotals(off).inputTokens;
    expect(lesson.text.costs).toContain(`about ${n(Math.round(extra / 100) * 100)} more input tokens`);
  },

  'loop-guard-halt': (lesson, { on, off }) => {
    const { warnAfterFailures, haltAfterFailures } = DEFAULTS;
    const usd = (log: RunEvent[]) => `$${end(log).usd_so_far.toFixed(3)}`;
    for (const log of [on, off]) {
      const reads = toolCalls(log, 'read_file');
      // Every call fails and no two are the same: nothing for the repeat block to catch.
      expect(new Set(reads.map((c) => (c.args as { path: string }).path)).size).toBe(reads.length);
      expect(reads.every((c) => c.status === 'error')).toBe(true);
      expect(of(log, 'tool_guard').filter((g) => g.kind === 'blocked')).toHaveLength(0);
    }
    const guards = of(on, 'tool_guard');
    expect(guards.filter((g) => g.kind === 'warning').map((g) => g.consecutive_failures)).toEqual(
      Array.from({ length: haltAfterFailures - warnAfterFailures }, (_, i) => warnAfterFailures + i),
    );
    const halt = guards.find((g) => g.kind === 'halt')!;
    expect(halt.consecutive_failures).toBe(haltAfterFailures);
    expect(toolCalls(on, 'read_file')).toHaveLength(haltAfterFailures);
    expect(toolCalls(on, 'read_file').filter((c) => c.result?.startsWith('Warning:'))).toHaveLength(
      haltAfterFailures - warnAfterFailures,
    );
    expect(lesson.text.costs).toContain(`${haltAfterFailures - warnAfterFailures} of them with a warning`);
    expect(lesson.text.costs).toContain(`then the halt at turn ${end(on).iteration} — ${usd(on)}`);
    expect(end(off).iteration).toBe(lesson.config.budgets!.maxIterations);
    expect(lesson.text.costs).toContain(`${toolCalls(off, 'read_file').length} failed reads for ${usd(off)}`);
    expect(Math.round(end(off).usd_so_far / end(on).usd_so_far)).toBe(2);
    expect(lesson.text.costs).toContain('about twice the cost');
  },

  'failure-budget': (lesson, { on, off }) => {
    expect(of(on, 'tool_guard').map((g) => g.kind)).toEqual([
      'short_circuit',
      'short_circuit',
      'short_circuit',
    ]);
    // Short-circuits spend none of the budget, so the tool is never disabled here.
    expect(Math.min(...toolCalls(on, 'read_file').map((c) => c.budget_left!))).toBe(
      DEFAULTS.failureBudget - 1,
    );
    expect(toolCalls(off, 'read_file').filter((c) => c.status === 'error')).toHaveLength(4);
    const extra = foldTotals(on).inputTokens - foldTotals(off).inputTokens;
    expect(lesson.text.costs).toContain(`about ${n(Math.round(extra / 100) * 100)} input tokens`);
  },

  'specific-tool-errors': (lesson, { on, off }) => {
    const { timeoutMs, failureBudget } = PRESETS.course.tools;
    const reads = toolCalls(on, 'read_file');
    expect(reads.filter((c) => c.status === 'timeout').map((c) => c.latency_ms)).toEqual(
      Array(failureBudget).fill(timeoutMs),
    );
    expect(reads.filter((c) => c.status === 'short_circuit')).toHaveLength(2);
    expect(of(on, 'tool_guard').filter((g) => g.kind === 'disabled')).toHaveLength(1);
    expect(end(off).ts).toBe(lesson.config.budgets!.maxRunMs);
    expect(toolCalls(off, 'read_file')[0]!.latency_ms).toBeGreaterThan(timeoutMs);
  },

  'arg-repair': (lesson, { on, off }) => {
    const repairs = of(on, 'arg_repair');
    const turns = (log: RunEvent[]) => of(log, 'iteration_start').length;
    // One repair per damaged call, each of the five kinds the text names, each call run as repaired.
    expect(repairs.flatMap((r) => r.changes)).toEqual([
      'trailing comma removed',
      'single quotes replaced by double quotes',
      'unquoted keys quoted',
      'max_results: "50" → 50',
      'cut-off closing brace added',
    ]);
    expect(lesson.text.costs).toContain(`On: ${repairs.length} calls repaired`);
    expect(of(on, 'tool_call').filter((c) => c.repaired)).toHaveLength(repairs.length);
    expect(of(on, 'tool_call').filter((c) => c.is_error)).toHaveLength(0);
    expect(lesson.text.costs).toContain(`the task takes ${turns(on)} turns`);
    const failed = of(off, 'tool_call').filter((c) => c.status === 'invalid_args');
    expect(lesson.text.costs).toContain(`each of the ${failed.length} damaged calls fails`);
    expect(lesson.text.costs).toContain(`${turns(off) - turns(on)} extra turns`);
    const extra = foldTotals(off).inputTokens - foldTotals(on).inputTokens;
    expect(lesson.text.costs).toContain(`about ${n(Math.round(extra / 100) * 100)} more input tokens`);
    expect(PRESETS.codesmith.tools).toMatchObject({ repairJson: true, coerceArgs: true });
  },

  'interrupted-tool-call': (lesson, { on, off }) => {
    const turns = (log: RunEvent[]) => of(log, 'iteration_start').length;
    const cut = of(on, 'tool_call').filter((c) => c.status === 'interrupted');
    expect(cut.map((c) => c.tool)).toEqual(['read_file']);
    expect(of(on, 'dangling_calls')).toMatchObject([{ repaired: true, calls: [{ tool: 'read_file' }] }]);
    // The model lists again, then reads again: the read it lost is asked for once more.
    const after = of(on, 'tool_call').filter((c) => c.seq > cut[0]!.seq);
    expect(after.slice(0, 2).map((c) => c.tool)).toEqual(['list_files', 'read_file']);
    expect(lesson.text.costs).toContain(`finishes in ${turns(on)} turns`);
    expect(of(off, 'dangling_calls')).toMatchObject([{ repaired: false, next: 'sent_unanswered' }]);
    const refused = refusedOnEveryResend(lesson, off, 400);
    expect(refused.message).toContain(
      '`tool_use` ids were found without `tool_result` blocks immediately after',
    );
    expect(lesson.text.happens).toContain(
      'tool_use ids were found without tool_result blocks immediately after',
    );
    expect(of(off, 'model_request').filter((r) => !r.background && r.attempt === 1)).toHaveLength(3);
    expect(lesson.text.costs).toContain(`the run ends after ${turns(off)} turns with the task not done`);
    expect(of(off, 'task_verdict')[0]!.verdict).toBe('not_done');
    expect(PRESETS.codesmith.tools.repairInterrupted).toBe(true);
  },

  'parallel-tool-calls': (lesson, { on, off }) => {
    const firstTurnMs = (log: RunEvent[]) => {
      const calls = of(log, 'tool_call').filter((c) => c.iteration === 1);
      return calls.at(-1)!.ts - of(log, 'tool_start')[0]!.ts;
    };
    const slow = lesson.config.faults!.tools![0]!;
    const budget = lesson.config.budgets!.maxRunMs!;
    expect(lesson.failure).toContain(`each of those calls takes ${formatMs(slow.delayMs)}`);
    expect(lesson.failure).toContain(`the run has ${formatMs(budget)}`);
    const batches = of(on, 'tool_batch').filter((b) => b.iteration === 1);
    expect(batches.map((b) => [b.tools.length, b.parallel])).toEqual([
      [4, true],
      [1, false],
    ]);
    expect(slow.times).toBe(5);
    expect(batches[0]!.limit).toBe(lesson.config.recovery!.tools!.maxParallel);
    expect(lesson.text.does).toContain(`at most ${batches[0]!.limit} at a time`);
    expect(firstTurnMs(on)).toBe(2 * slow.delayMs!);
    expect(lesson.text.costs).toContain(`the first turn’s five calls take ${formatMs(firstTurnMs(on))}`);
    expect(lesson.text.costs).toContain(`the run finishes in ${formatMs(end(on).ts)}`);
    // Off: one after another the five would take five times as long, more than the whole budget.
    expect(lesson.text.happens).toContain(
      `${formatMs(5 * slow.delayMs!)} before the model can take its next step`,
    );
    expect(5 * slow.delayMs!).toBeGreaterThan(budget);
    expect(of(off, 'tool_batch').every((b) => !b.parallel)).toBe(true);
    expect(lesson.text.costs).toContain(
      `Off: the ${formatMs(budget)} budget ends the run while the first turn’s calls are still running`,
    );
    expect(end(off).ts).toBe(budget);
    expect(of(off, 'iteration_start').map((e) => e.iteration)).toEqual([1]);
    expect(PRESETS.codesmith.tools.maxParallel).toBe(lesson.config.recovery!.tools!.maxParallel);
  },

  'mcp-reconnect': (lesson, { on, off }) => {
    const recovery = lesson.config.mcp!.recovery!;
    const decisions = (log: RunEvent[]) =>
      of(log, 'mechanism_decision').filter((d) => d.mechanism === 'mcp:ws');
    const steps = (log: RunEvent[]) => decisions(log).map((d) => `${d.decision}→${d.next}`);
    const serverTools = ['list_files', 'read_file', 'write_file'];
    for (const log of [on, off]) {
      // The shipped server, a process on stdio, lists the three file tools; its second call is
      // read_file of README.md, and the process is killed while it runs.
      const [connected, crashed] = decisions(log);
      expect(connected!.why).toContain('the shipped workspace server over stdio');
      expect(connected!.why).toContain('lists 3 tools: list_files, read_file, write_file');
      const calls = of(log, 'tool_call').filter((c) => serverTools.includes(c.tool));
      expect(crashed!.decision).toBe('crashed');
      expect(crashed!.why).toContain('while read_file was running');
      expect(crashed!.why).toContain('SIGKILL');
      const cut = calls.find((c) => c.seq > crashed!.seq)!;
      expect(calls.indexOf(cut)).toBe(1);
      expect(cut).toMatchObject({ tool: 'read_file', args: { path: 'README.md' }, is_error: true });
    }
    expect(lesson.text.happens).toContain('the second call, read_file of README.md');
    expect(lesson.text.happens).toContain('(SIGKILL)');

    // On: answered "restarted … undone", one reconnect after the backoff, re-listed the same tools.
    expect(steps(on)).toEqual([
      'connected→go_on',
      'crashed→reconnect',
      'reconnect→connect',
      'reconnected→relist',
      'relisted→go_on',
    ]);
    const [, crashedOn, reconnect, reconnected, relisted] = decisions(on);
    expect(reconnected!.ts - crashedOn!.ts).toBe(recovery.backoffMs);
    expect(reconnect!.why).toContain(`in ${recovery.backoffMs} ms (try 1 of ${recovery.maxReconnects})`);
    expect(lesson.text.does).toContain(`waits ${recovery.backoffMs} ms of run time`);
    expect(lesson.text.does).toContain(`(try 1 of ${recovery.maxReconnects})`);
    expect(relisted!.why).toContain('3 (the same tools)');
    expect(lesson.text.does).toContain('the same 3');
    const callsOn = of(on, 'tool_call').filter((c) => serverTools.includes(c.tool));
    const cutOn = callsOn[1]!;
    expect(cutOn.result).toContain('The server was restarted');
    expect(cutOn.result).toContain('anything the call did was undone');
    const resent = callsOn.slice(2).find((c) => c.tool === 'read_file')!;
    expect(resent).toMatchObject({ args: { path: 'README.md' }, status: 'ok' });
    const failedOn = of(on, 'tool_call').filter((c) => c.is_error);
    expect(failedOn).toEqual([cutOn]);
    expect(lesson.text.costs).toContain(
      `On: ${recovery.backoffMs} ms of backoff and ${failedOn.length} failed call;`,
    );
    expect(
      toolCalls(on, 'read_file').some(
        (c) => (c.args as { path?: string }).path === 'src/slugify.js' && c.status === 'ok',
      ),
    ).toBe(true);
    expect(toolCalls(on, 'edit_file').map((c) => (c.args as { path?: string }).path)).toEqual([
      'src/slugify.js',
    ]);
    expect(of(on, 'task_verdict')).toMatchObject([{ verdict: 'done' }]);

    // Off: gone at once, every later call to its tools answered so, no read of src/slugify.js, not done.
    expect(steps(off)).toEqual(['connected→go_on', 'crashed→gone', 'gone→surface']);
    const gone = of(off, 'tool_call').filter((c) =>
      c.result?.includes('which is gone for the rest of this run'),
    );
    expect(gone.every((c) => serverTools.includes(c.tool))).toBe(true);
    const callsOff = of(off, 'tool_call').filter((c) => serverTools.includes(c.tool));
    expect(callsOff.slice(1).filter((c) => c.status !== 'blocked')).toEqual(gone);
    expect(lesson.text.costs).toContain(`answered so — ${gone.length} times —`);
    expect(toolCalls(off, 'read_file').some((c) => c.status === 'ok')).toBe(false);
    expect(toolCalls(off, 'edit_file')).toHaveLength(0);
    expect(of(off, 'task_verdict')).toMatchObject([{ verdict: 'not_done' }]);

    // No server process is left once both sides ended.
    const left = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('workspace-server-main.ts'))
      .filter((line) => Number(line.trim().split(/\s+/)[1]) === process.pid);
    expect(left).toEqual([]);
  },
};
