import { expect } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { formatMs } from '@/lib/protocol';
import { foldTotals } from '@/lib/protocol/run-totals';
import { runToOtlp } from '@/lib/otel/run-to-otlp';
import { attributeOf, OtlpTraceRequestSchema, type OtlpSpan } from '@/lib/otel/otlp-json-schema';
import { type Check, end, of, s1, toolCalls } from './support.testkit';

/** A run's OTLP export, as its run page's OTLP link serves it, read back span by span. */
function traceOf(log: RunEvent[]): OtlpSpan[] {
  const request = OtlpTraceRequestSchema.parse(
    JSON.parse(runToOtlp({ runId: 'lesson', events: log, startedAtMs: 0 })),
  );
  return request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}
const opOf = (span: OtlpSpan) => attributeOf(span, 'gen_ai.operation.name');
/** OTLP status code 2 is ERROR. */
const isError = (span: OtlpSpan) => span.status?.code === 2;

/** The claims of the lessons on whether the task was done, and on reading a failing run's trace. */
export const VERDICT_CLAIMS: Record<string, Check> = {
  'reading-a-trace': (lesson, { on, off }) => {
    const spans = traceOf(on);
    const chats = spans.filter((s) => opOf(s) === 'chat');
    const toolSpans = spans.filter((s) => opOf(s) === 'execute_tool');
    const [agent] = spans.filter((s) => opOf(s) === 'invoke_agent');
    expect(lesson.text.costs).toContain(
      `On: ${chats.length} chat spans and ${toolSpans.length} execute_tool spans under one invoke_agent span`,
    );
    expect([...chats, ...toolSpans].every((s) => s.parentSpanId === agent!.spanId)).toBe(true);
    const [failure] = of(on, 'model_error');
    const turn = chats.filter((s) => attributeOf(s, 'loop_lab.iteration') === failure!.iteration);
    expect(lesson.text.costs).toContain(
      `Turn ${failure!.iteration} is three chat spans in a row, resend_count 0, 1 and 2`,
    );
    expect(
      turn.map((s) => [
        attributeOf(s, 'http.request.resend_count'),
        isError(s),
        attributeOf(s, 'error.type'),
      ]),
    ).toEqual([
      [0, true, 'server_error'],
      [1, true, 'server_error'],
      [2, false, undefined],
    ]);
    // The wait rides on the failed attempt's span as its retry_scheduled event.
    const waits = turn.slice(0, 2).map((s) => {
      const carried = (s.events ?? [])
        .map((e) => JSON.parse(String(attributeOf(e, 'loop_lab.event'))) as RunEvent)
        .find((e) => e.event === 'retry_scheduled');
      return carried?.event === 'retry_scheduled' ? carried.wait_ms : undefined;
    });
    expect(waits).toEqual(of(on, 'retry_scheduled').map((r) => r.wait_ms));
    expect(lesson.text.costs).toContain(`(${s1(waits[0]!)}, then ${s1(waits[1]!)})`);
    expect(isError(agent!)).toBe(false);
    expect(spans.filter(isError)).toHaveLength(2);
    // Off: the trace stops at the first failure, and the run's own span is the error.
    const offSpans = traceOf(off);
    const offChats = offSpans.filter((s) => opOf(s) === 'chat');
    expect(lesson.text.costs).toContain(
      `the trace ends at turn ${end(off).iteration} with one ERROR chat span`,
    );
    expect(offChats.filter(isError).map((s) => attributeOf(s, 'loop_lab.iteration'))).toEqual([
      end(off).iteration,
    ]);
    expect(attributeOf(offChats.at(-1)!, 'loop_lab.iteration')).toBe(end(off).iteration);
    const offAgent = offSpans.find((s) => opOf(s) === 'invoke_agent')!;
    expect(isError(offAgent)).toBe(true);
    expect(offAgent.status?.message).toContain(failure!.message);
    expect(offAgent.status?.message).toContain('retry is off in this configuration');
  },

  'rewritten-test': (lesson, { on, off }) => {
    const test = 'test/slugify.test.js';
    for (const log of [on, off]) {
      // The same run on both sides: the test file rewritten, the code left alone, run_check FAIL then PASS.
      expect(toolCalls(log, 'run_check').map((c) => c.result?.split('\n')[0])).toEqual(['FAIL', 'PASS']);
      expect(toolCalls(log, 'edit_file').map((c) => (c.args as { path?: string }).path)).toEqual([test]);
      expect(of(log, 'task_verdict')[0]!.tests_edited).toEqual([test]);
    }
    expect(lesson.text.happens).toContain(`reads ${test}`);
    expect(foldTotals(on)).toEqual(foldTotals(off));
    const [verdictOn] = of(on, 'task_verdict');
    expect(verdictOn).toMatchObject({ verdict: 'not_done', tests_run: 'shipped' });
    const [, passed, failed] = /(\d+) passed, (\d+) failed/.exec(verdictOn!.detail)!;
    expect(lesson.text.does).toContain(`fails ${failed} of its ${Number(passed) + Number(failed)} tests`);
    expect(lesson.text.does).toContain(`names ${test} as edited`);
    expect(of(off, 'task_verdict')[0]).toMatchObject({ verdict: 'done', tests_run: 'workspace' });
  },
  'approval-denies-a-write': (lesson, { on, off }) => {
    const test = 'test/slugify.test.js';
    const approval = lesson.config.pause!.approval!;
    const wait = formatMs(approval.timeoutMs!);
    expect(approval.tools).toBe('writes');
    expect(lesson.text.does).toContain(`denied after ${wait} of run time`);
    expect(lesson.text.does).toContain(`nobody approved it within ${wait} of run time, so it was denied`);
    expect(lesson.text.costs).toContain(`${wait} of run time spent waiting`);
    expect(lesson.expect.on.says).toContain(`denied after ${wait} undecided`);
    const finalText = (log: RunEvent[]) =>
      of(log, 'llm_call')
        .filter((c) => !c.background && c.stop_reason === 'end_turn')
        .flatMap((c) => (c.message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])))
        .join('');
    for (const log of [on, off]) {
      // The model runs the check (FAIL) before it reaches for the test file; it never edits the code.
      expect(toolCalls(log, 'run_check')[0]!.result?.split('\n')[0]).toBe('FAIL');
      expect(
        toolCalls(log, 'edit_file').some((c) => (c.args as { path?: string }).path === 'src/slugify.js'),
      ).toBe(false);
      expect(end(log)).toMatchObject({ reason: 'end_turn', complete: true });
    }
    // Off: the overwrite of the whole test file runs, run_check says PASS, the model reports success.
    const [edit] = toolCalls(off, 'edit_file');
    expect(edit).toMatchObject({ is_error: false, args: { path: test } });
    expect((edit!.args as { old_string: string }).old_string).toContain("test('joins every word");
    expect(toolCalls(off, 'run_check').map((c) => c.result?.split('\n')[0])).toEqual(['FAIL', 'PASS']);
    expect(finalText(off)).toMatch(/^run_check passes now/);
    expect(of(off, 'task_verdict')[0]).toMatchObject({
      verdict: 'done',
      tests_run: 'workspace',
      tests_edited: [test],
    });
    expect(of(off, 'tool_approval')).toEqual([]);
    // On: the same call waits, and the approval's timeout denies it on the run's clock; it never runs.
    const [paused] = of(on, 'paused');
    expect(paused).toMatchObject({ trigger: 'approval', call: { tool: 'edit_file', args: { path: test } } });
    const decisions = of(on, 'tool_approval');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      tool: 'edit_file',
      call_id: paused!.call!.id,
      decision: 'denied',
      by: 'timeout',
      reason: `no decision within ${wait} of run time`,
      next: 'the model receives the denial as the call’s error result',
    });
    expect(decisions[0]!.ts - paused!.ts).toBe(approval.timeoutMs);
    expect(toolCalls(on, 'edit_file')).toEqual([]);
    // It recovers: the check still fails 2 of 4, the third identical check is blocked, it says it could not finish.
    const checks = toolCalls(on, 'run_check');
    expect(checks.map((c) => c.status)).toEqual(['ok', 'ok', 'blocked']);
    expect(checks[1]!.result?.split('\n')[0]).toBe('FAIL');
    const [, passed, failed] = /(\d+) passed, (\d+) failed/.exec(checks[1]!.result!)!;
    expect(lesson.text.does).toContain(`fails ${failed} of its ${Number(passed) + Number(failed)} tests`);
    expect(of(on, 'tool_guard')).toMatchObject([{ tool: 'run_check', kind: 'blocked' }]);
    expect(finalText(on)).toMatch(/^I could not finish the task/);
    expect(of(on, 'task_verdict')[0]).toMatchObject({
      verdict: 'not_done',
      tests_run: 'workspace',
      tests_edited: [],
    });
  },
};
