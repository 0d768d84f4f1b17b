import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { EventOf, RunEvent, RunEventType } from '@/lib/protocol';
import { foregroundRetryRule, formatMs, PRESETS, resolveRecovery } from '@/lib/protocol';
import { foldTotals } from '@/lib/protocol/run-totals';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { REASONING_PLACEHOLDER } from '@/lib/trajectory/render-openai';
import { runToOtlp } from '@/lib/otel/run-to-otlp';
import { attributeOf, OtlpTraceRequestSchema, type OtlpSpan } from '@/lib/otel/otlp-json-schema';
import type { Lesson } from './lesson';
import { LESSONS } from './index';

/**
 * Test support: every claim a lesson's text makes, checked against the two runs it plays.
 * A number the text quotes from a run is computed here from the events and must appear in
 * the text as written, so prose and run cannot drift apart; numbers from the presets come
 * into the text through ./defaults.ts and are checked against the events here.
 */

export interface PlayedSides {
  on: RunEvent[];
  off: RunEvent[];
}

const of = <T extends RunEventType>(log: RunEvent[], type: T): EventOf<T>[] =>
  log.filter((e): e is EventOf<T> => e.event === type);
const end = (log: RunEvent[]) => log.at(-1) as EventOf<'terminate'>;
const foreground = (log: RunEvent[]) => of(log, 'model_request').filter((e) => !e.background);
const toolCalls = (log: RunEvent[], tool: string) => of(log, 'tool_call').filter((e) => e.tool === tool);
/** 3,000 → "3.0 s". */
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** 304,254 → "5 min 4 s". */
const minSec = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
const n = (x: number) => x.toLocaleString('en-US');
/** 155,537 → "155.5k". */
const k1 = (x: number) => `${(x / 1000).toFixed(1)}k`;
/** 0.080135 → "$0.080". */
const usd3 = (x: number) => `$${x.toFixed(3)}`;

/**
 * A naive history's 400 under CodeSmith's exclusion rule: the first refused request and every
 * resend the budget allows, each refused the same way and each retry saying the rule overruled
 * the classifier; the text names the count and the backoff waited.
 */
function refusedOnEveryResend(lesson: Lesson, off: RunEvent[], status: number): EventOf<'model_error'> {
  const refused = of(off, 'model_error');
  expect(refused.map((e) => e.status)).toEqual(Array.from({ length: DEFAULTS.retries + 1 }, () => status));
  expect(new Set(refused.map((e) => e.message)).size).toBe(1);
  const waits = of(off, 'retry_scheduled');
  expect(waits).toHaveLength(DEFAULTS.retries);
  for (const w of waits) expect(w.reason).toContain('retried although the classifier calls it final');
  for (const w of waits) expect(w.reason).toContain('CodeSmith’s exclusion rule');
  expect(of(off, 'retry_declined')).toMatchObject([{ rule: 'budget_spent' }]);
  expect(lesson.text.costs).toContain(`${s1(waits.reduce((sum, w) => sum + w.wait_ms, 0))} of backoff`);
  expect(lesson.text.costs).toMatch(
    new RegExp(`refused ${DEFAULTS.retries + 1} times|the ${DEFAULTS.retries} resends`),
  );
  expect(PRESETS.codesmith.retry.retryOn).toBe('exclusion');
  return refused[0]!;
}

type Check = (lesson: Lesson, runs: PlayedSides) => void;

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

export const LESSON_CLAIMS: Record<string, Check> = {
  'retry-ladder': (lesson, { on, off }) => {
    const retries = of(on, 'retry_scheduled');
    expect(of(on, 'model_error').map((e) => e.status)).toEqual([529, 529]);
    expect(retries.map((r) => r.max_attempts)).toEqual([DEFAULTS.retries + 1, DEFAULTS.retries + 1]);
    // 1 s then 2 s, each within the preset's jitter.
    retries.forEach((r, i) =>
      expect(Math.abs(r.wait_ms / (PRESETS.codesmith.retry.baseDelayMs * 2 ** i) - 1)).toBeLessThanOrEqual(
        PRESETS.codesmith.retry.jitterRatio,
      ),
    );
    expect(lesson.text.does).toContain(`here ${s1(retries[0]!.wait_ms)} and ${s1(retries[1]!.wait_ms)}`);
    expect(lesson.text.costs).toContain(`${s1(retries[0]!.wait_ms + retries[1]!.wait_ms)} of waiting`);
    // The third request gets through; the failed ones bill nothing.
    expect(of(on, 'llm_call')[0]!.attempt).toBe(3);
    expect(of(on, 'llm_call').filter((c) => c.iteration === 1 && !c.background)).toHaveLength(1);
    expect(foreground(off)).toHaveLength(1);
    expect(of(off, 'retry_scheduled')).toHaveLength(0);
    expect(end(off).usd_so_far).toBe(0);
  },

  'retry-amplification': (lesson, { on, off }) => {
    // The requests sent before the outage's first answer got through, on each side.
    const outage = (log: RunEvent[]) => of(log, 'fault_injected').length;
    const firstTurn = (log: RunEvent[]) => foreground(log).filter((e) => e.iteration === 1).length;
    const resent = of(off, 'sdk_retry');
    expect(of(on, 'sdk_retry')).toHaveLength(0);
    const onRequests = firstTurn(on);
    const offRequests = firstTurn(off) + resent.length;
    const backoff = of(on, 'retry_scheduled').reduce((sum, r) => sum + r.wait_ms, 0);
    expect(lesson.text.costs).toContain(
      `On: ${onRequests} HTTP requests for the outage, ${outage(on)} of them failed, after ${s1(backoff)} of backoff`,
    );
    expect(lesson.text.costs).toContain(
      `Off: ${offRequests} HTTP requests for the same outage — the SDK resent ${resent.length} of them on its own — ${outage(off)} failed`,
    );
    // Stacked, the engine layer never backs off: a 503 goes again at once.
    expect(of(off, 'retry_scheduled').every((r) => r.backoff_mode === 'fixed' && r.wait_ms === 0)).toBe(true);
    expect(lesson.text.does).toContain(`(${DEFAULTS.retries} retries per call)`);
    expect(PRESETS.codesmith.retry.fixedDelayMs).toBe(2_000);
  },

  classifier: (lesson, { on, off }) => {
    // The same status twice; the body tells them apart.
    for (const log of [on, off])
      expect([...new Set(of(log, 'model_error').map((e) => e.status))]).toEqual([429]);
    const [rateLimit, quota] = of(on, 'model_error');
    expect(rateLimit).toMatchObject({ category: 'rate_limit', retryable: true, iteration: 1 });
    expect(quota).toMatchObject({ vendor_type: 'insufficient_quota', retryable: false });
    const [retried] = of(on, 'retry_scheduled');
    expect(of(on, 'retry_scheduled')).toHaveLength(1);
    expect(lesson.text.costs).toContain(
      `the rate limit at turn ${rateLimit!.iteration} is retried once, after ${s1(retried!.wait_ms)}`,
    );
    const [declined] = of(on, 'retry_declined');
    expect(declined).toMatchObject({ rule: 'not_retryable', attempts: 1, iteration: quota!.iteration });
    expect(lesson.text.costs).toContain(`the spent quota at turn ${quota!.iteration} ends the run at once`);
    expect(end(on).message).toContain(quota!.message);
    // Off: the spent quota retried to the end of the budget, each wait saying the classifier was overruled.
    const wasted = of(off, 'retry_scheduled').filter((r) => r.iteration === quota!.iteration);
    expect(wasted).toHaveLength(DEFAULTS.retries);
    for (const w of wasted) expect(w.reason).toContain('retried although the classifier calls it final');
    expect(lesson.text.costs).toContain(
      `${DEFAULTS.retries} more requests and ${s1(wasted.reduce((sum, w) => sum + w.wait_ms, 0))} of waiting`,
    );
    expect(end(off).iteration).toBe(end(on).iteration);
    expect(end(off).message).toContain(quota!.message);
    // The on side runs the project's rule over CodeSmith's preset; CodeSmith's own exclusion rule retries this quota, as the off side does.
    expect(lesson.config.recovery).toEqual({ retry: { retryOn: 'transient' } });
    expect(
      foregroundRetryRule(PRESETS.codesmith, { category: 'rate_limit', lasting: 'spent_quota' }),
    ).toMatchObject({ retried: true });
    expect(
      foregroundRetryRule(resolveRecovery('codesmith', lesson.config.recovery), {
        category: 'rate_limit',
        lasting: 'spent_quota',
      }),
    ).toMatchObject({
      retried: false,
    });
    expect(lesson.text.does).toContain('CodeSmith’s own rule is exclusion');
  },

  'retry-after': (lesson, { on, off }) => {
    const [wait] = of(on, 'retry_scheduled');
    expect(of(on, 'retry_scheduled')).toHaveLength(1);
    expect(wait!.wait_ms).toBe(wait!.retry_after_ms);
    expect(lesson.text.costs).toContain(`one ${wait!.wait_ms / 1000} s wait`);
    const offWaits = of(off, 'retry_scheduled');
    expect(offWaits).toHaveLength(DEFAULTS.retries);
    for (const w of offWaits) expect(w.wait_ms).toBeLessThan(w.retry_after_ms!);
    const spent = offWaits.reduce((sum, w) => sum + w.wait_ms, 0);
    expect(spent).toBeLessThan(wait!.retry_after_ms!);
    expect(lesson.text.costs).toContain(`waits that add up to ${s1(spent)}`);
  },

  'stream-idle-watchdog': (lesson, { on, off }) => {
    const { baseMs, perRetryMs } = PRESETS.codesmith.watchdog;
    expect(of(on, 'watchdog_fired').map((w) => [w.window_ms, w.outcome])).toEqual([
      [baseMs, 'empty'],
      [baseMs + perRetryMs, 'empty'],
    ]);
    // Empty is retried at once, and the third attempt answers.
    expect(of(on, 'retry_scheduled').map((r) => r.wait_ms)).toEqual([0, 0]);
    expect(of(on, 'llm_call')[0]!.attempt).toBe(3);
    const pings = of(on, 'keepalive').filter((k) => k.request_no === 1);
    expect(pings[1]!.ts - pings[0]!.ts).toBe(15_000);
    expect(lesson.text.happens).toContain('every 15 s');
    expect(of(off, 'watchdog_fired')).toHaveLength(0);
    expect(of(off, 'llm_call')).toHaveLength(0);
    expect(end(off).ts).toBe(lesson.config.budgets!.maxRunMs);
  },

  'partial-vs-empty': (lesson, { on, off }) => {
    expect(of(on, 'model_error').map((e) => e.partial)).toEqual([true]);
    expect(foreground(on)).toHaveLength(1);
    // The kept Partial is logged with the tokens that arrived, counted (the vendor's usage never came).
    const kept = of(on, 'llm_call').find((c) => c.partial)!;
    expect(kept).toMatchObject({ output_tokens_counted: true });
    expect(kept.output_tokens).toBeGreaterThan(0);
    expect(foreground(off)).toHaveLength(2);
    const again = of(off, 'llm_call').find((c) => !c.background)!;
    expect(again.attempt).toBe(2);
    // A second stream as long as the first: the wait is spent twice.
    expect(again.latency_ms).toBeGreaterThan(of(on, 'llm_call')[0]!.latency_ms);
    expect(lesson.text.costs).toContain(`${n(again.output_tokens)} output tokens`);
  },

  'stream-error-cap': (lesson, { on, off }) => {
    const cap = DEFAULTS.streamErrorCap;
    expect(foreground(on)).toHaveLength(cap);
    expect(end(on).message).toContain(`${cap} consecutive stream errors`);
    const waited = (log: RunEvent[]) => of(log, 'retry_scheduled').reduce((sum, w) => sum + w.wait_ms, 0);
    expect(lesson.text.costs).toContain(`after ${cap} attempts and ${s1(waited(on))} of backoff`);
    const retries = lesson.config.recovery!.retry!.maxRetries!;
    expect(foreground(off)).toHaveLength(retries + 1);
    expect(lesson.text.costs).toContain(
      `after ${retries + 1} attempts and ${minSec(waited(off))} of backoff`,
    );
  },

  'fallback-model': (lesson, { on, off }) => {
    const after = DEFAULTS.fallbackAfter;
    const switchAt = on.findIndex((e) => e.event === 'fallback');
    expect(of(on.slice(0, switchAt), 'model_error')).toHaveLength(after);
    const waits = of(on, 'retry_scheduled');
    expect(lesson.text.costs).toContain(
      `waits of ${waits
        .map((w) => (w.wait_ms / 1000).toFixed(1))
        .join(', ')
        .replace(/, ([^,]*)$/, ' and $1')} s`,
    );
    expect(waits.at(-1)!.rung).toBe('degrade');
    const fallback = of(on, 'fallback')[0]!;
    for (const call of of(on, 'llm_call')) expect(call.model).toBe(fallback.to_model);
    expect(of(off, 'retry_scheduled')).toHaveLength(DEFAULTS.s11Retries);
    expect(lesson.text.costs).toContain(
      `— ${minSec(of(off, 'retry_scheduled').reduce((sum, w) => sum + w.wait_ms, 0))} of waiting —`,
    );
    // The doubling stops at the cap; jitter is added on top of it.
    expect(Math.max(...of(off, 'retry_scheduled').map((w) => w.wait_ms))).toBeGreaterThan(
      PRESETS.s11.retry.maxDelayMs,
    );
  },

  'cross-vendor-fallback': (lesson, { on, off }) => {
    const after = DEFAULTS.fallbackAfter;
    const [swap] = of(on, 'swap');
    expect(of(on, 'swap')).toHaveLength(1);
    expect(swap).toMatchObject({
      cause: 'fallback',
      from_vendor: 'sim-anthropic',
      to_vendor: 'sim-openai',
      to_model: 'gpt-sim-4o',
      dialect: 'openai-chat',
    });
    expect(lesson.text.costs).toContain(`sim-openai’s ${swap!.to_model}`);
    expect(of(on.slice(0, on.indexOf(swap!)), 'model_error')).toHaveLength(after);
    const waits = of(on, 'retry_scheduled');
    expect(lesson.text.costs).toContain(
      `waits of ${waits
        .map((w) => (w.wait_ms / 1000).toFixed(1))
        .join(', ')
        .replace(/, ([^,]*)$/, ' and $1')} s`,
    );
    // Every answer after the swap comes from the other vendor.
    for (const call of of(on, 'llm_call')) expect(call.vendor).toBe(swap!.to_vendor);
    expect(of(on, 'fallback')).toHaveLength(0);
    expect(of(off, 'swap')).toHaveLength(0);
    expect(of(off, 'retry_scheduled')).toHaveLength(DEFAULTS.s11Retries);
    expect(of(off, 'model_error')).toHaveLength(DEFAULTS.s11Retries + 1);
    expect(lesson.text.costs).toContain(
      `— ${minSec(of(off, 'retry_scheduled').reduce((sum, w) => sum + w.wait_ms, 0))} of waiting —`,
    );
  },

  'background-retry': (lesson, { on, off }) => {
    const [wait] = of(on, 'retry_scheduled');
    expect(wait).toMatchObject({ account: 'background', wait_ms: 2_000 });
    expect(lesson.text.costs).toContain(`a ${wait!.wait_ms / 1000} s wait`);
    expect(of(on, 'run_title')).toHaveLength(1);
    expect(of(off, 'run_title')).toHaveLength(0);
    expect(of(off, 'log').some((l) => /title skipped/.test(l.message))).toBe(true);
    for (const log of [on, off]) expect(of(log, 'task_verdict')[0]!.verdict).toBe('done');
  },

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

  'output-truncation': (lesson, { on, off }) => {
    expect(toolCalls(on, 'list_files')[0]!.result).toContain('logs/service.log (2400 lines, 160345 chars)');
    expect(lesson.failure).toContain('2,400-line service log (160,345 characters)');
    const whole = toolCalls(off, 'read_file').find((c) => c.result?.startsWith('logs/service.log'))!;
    expect(lesson.text.costs).toContain(`${n(whole.result_chars)} characters`);
    // The same read on the mechanism's side: what was kept is within the cap, the rest is cut.
    const [cut] = toolCalls(on, 'read_file').filter((c) => c.truncated_chars);
    expect(whole.result_chars - cut!.truncated_chars!).toBeLessThanOrEqual(
      PRESETS.course.tools.truncateChars,
    );
    expect(toolCalls(on, 'search').length).toBeGreaterThan(0);
    const [tooLong] = of(off, 'model_error');
    const [, tokens, window] = /(\d+) tokens > (\d+) maximum/.exec(tooLong!.message)!;
    expect(lesson.text.costs).toContain(
      `${n(Number(tokens))} tokens against a ${n(Number(window))}-token window`,
    );
  },

  'old-result-compaction': (lesson, { on, off }) => {
    const runbooks = new Set(
      toolCalls(on, 'read_file')
        .map((c) => /^docs\/runbooks\/\S+/.exec(c.result ?? '')?.[0])
        .filter(Boolean),
    );
    expect(runbooks.size).toBe(12);
    const stubs = of(on, 'compaction').filter((c) => c.step === 'old_results');
    expect(stubs.map((c) => c.stubbed.length)).toEqual(Array(12).fill(1));
    expect(stubs[0]!.iteration).toBe(7);
    // The largest request by the vendor's count (the estimate before sending runs lower).
    const onCalls = of(on, 'llm_call').filter((c) => !c.background);
    const largest = Math.max(...onCalls.map((c) => c.input_tokens));
    expect(lesson.text.costs).toContain(
      `the largest request is ${n(largest)} tokens of its ${n(of(on, 'context_sent')[0]!.window)}`,
    );
    const [onTotals, offTotals] = [foldTotals(on), foldTotals(off)];
    expect(offTotals.inputTokens / onTotals.inputTokens).toBeGreaterThan(2);
    expect(lesson.text.costs).toContain(
      `less than half the input tokens (${k1(onTotals.inputTokens)} against ${k1(offTotals.inputTokens)})`,
    );
    // Each stub changes an old message: the compaction says it invalidates the cached prefix, and
    // the request of that turn reads nothing from the cache and writes its whole prompt again.
    for (const stub of stubs) expect(stub.reason).toContain('invalidates the cached prefix');
    const stubbedTurns = new Set(stubs.map((c) => c.iteration));
    const missed = onCalls.filter((c) => stubbedTurns.has(c.iteration));
    expect(missed).toHaveLength(stubbedTurns.size);
    for (const c of missed) expect([c.cache_read_tokens, c.cache_write_tokens]).toEqual([0, c.input_tokens]);
    expect(lesson.text.costs).toContain(
      `the ${missed.length} requests that stub a runbook read nothing from the prompt cache and write their whole prompt to it again`,
    );
    // So the cost rises while the tokens fall, and the criterion says so.
    expect(onTotals.usd).toBeGreaterThan(offTotals.usd);
    expect(lesson.text.costs).toContain(`${usd3(onTotals.usd)} on against ${usd3(offTotals.usd)} off`);
    expect(lesson.criterion.says).toContain('costs more: the stubs break the prompt cache');
    expect(lesson.text.costs).toContain(
      `${Math.round((offTotals.cacheReadTokens / offTotals.inputTokens) * 100)} % of what it sent was read back from the cache`,
    );
  },

  'prompt-caching': (lesson, { on, off }) => {
    const calls = of(on, 'llm_call');
    const uncachedFirst = calls.findIndex(
      (c) => (c.cache_read_tokens ?? 0) + (c.cache_write_tokens ?? 0) > 0,
    );
    for (const c of calls.slice(0, uncachedFirst)) expect(c.input_tokens).toBeLessThan(1024);
    expect(lesson.text.costs).toContain(
      `the first ${uncachedFirst} requests are under the 1,024-token minimum`,
    );
    // From the first write on, every later foreground request reads what the one before it wrote.
    const foregroundCalls = calls.filter((c) => !c.background);
    for (const c of foregroundCalls.slice(uncachedFirst + 1)) expect(c.cache_read_tokens).toBeGreaterThan(0);
    const turn15 = foregroundCalls.find((c) => c.iteration === 15)!;
    expect(lesson.text.costs).toContain(
      `at turn 15, ${n(turn15.cache_read_tokens!)} of the request's ${n(turn15.input_tokens)} tokens`,
    );
    const totals = foldTotals(on);
    expect(lesson.text.costs).toContain(
      `${Math.round((totals.cacheReadTokens / totals.inputTokens) * 100)} % of all input tokens`,
    );
    const offTotals = foldTotals(off);
    // The same turns with the same tokens (compared through the runbooks: a sandboxed check's words can vary with the machine).
    const upTo15 = (log: RunEvent[]) =>
      of(log, 'llm_call')
        .filter((c) => !c.background && c.iteration <= 15)
        .map((c) => c.input_tokens);
    expect(upTo15(off)).toEqual(upTo15(on));
    expect(offTotals.cacheReadTokens + offTotals.cacheWriteTokens).toBe(0);
    expect(totals.usd / offTotals.usd).toBeLessThan(0.25);
    expect(lesson.text.costs).toContain('under a quarter of what it costs off');
    expect(offTotals.usd - totals.usd).toBeCloseTo(totals.cacheSavedUsd, 5);
  },

  'proactive-summary': (lesson, { on, off }) => {
    const [summary] = of(on, 'compaction');
    expect(summary).toMatchObject({ step: 'summary', trigger: 'proactive', ok: true });
    expect(summary!.tokens_before / 16_000).toBeGreaterThanOrEqual(
      PRESETS.codesmith.compaction.thresholdRatio,
    );
    expect(lesson.text.costs).toContain(
      `at turn ${summary!.iteration} one summary call takes the request from ${n(summary!.tokens_before)} to ${n(summary!.tokens_after)} tokens`,
    );
    expect(of(on, 'model_error')).toHaveLength(0);
    expect(lesson.text.costs).toContain('one summary request');
    expect(of(on, 'compaction')).toHaveLength(1);
    const [overflow] = of(off, 'context_overflow');
    expect(lesson.text.costs).toContain(`at turn ${overflow!.iteration} the vendor refuses`);
    expect(lesson.text.costs).toContain(
      /(\d+) tokens > (\d+)/
        .exec(of(off, 'model_error')[0]!.message)!
        .slice(1)
        .map((x) => n(Number(x)))
        .join(' tokens > '),
    );
    expect(of(off, 'context_recovered')).toHaveLength(1);
  },

  'overflow-waterfall': (lesson, { on, off }) => {
    const [overflow] = of(on, 'context_overflow');
    expect(overflow!.budget).toBe(DEFAULTS.waterfallBudget);
    const steps = of(on, 'compaction');
    expect(steps.map((c) => c.step)).toEqual(['micro_compact']);
    expect(lesson.text.costs).toContain(
      `at turn ${overflow!.iteration} one micro-compact takes the request from ${n(steps[0]!.tokens_before)} to ${n(steps[0]!.tokens_after)} tokens`,
    );
    expect(of(on, 'context_recovered')).toHaveLength(1);
    expect(lesson.text.costs).toContain(`ends the run at turn ${end(off).iteration}`);
  },

  'circuit-breaker': (lesson, { on, off }) => {
    const failed = (log: RunEvent[]) =>
      of(log, 'compaction').filter((c) => c.step === 'summary' && c.reason === 'the summary call failed');
    const refused = of(on, 'compaction').filter((c) => c.reason?.startsWith('circuit breaker open'));
    const open = of(on, 'breaker').find((b) => b.state === 'open')!;
    expect(open.consecutive_failures).toBe(DEFAULTS.breakerFailures);
    expect(open.reopen_at! - open.ts).toBe(PRESETS.codesmith.compaction.breakerCooldownMs);
    expect(failed(on)).toHaveLength(DEFAULTS.breakerFailures);
    expect(lesson.text.costs).toContain(`refuses ${refused.length} more without calling`);
    expect(lesson.text.costs).toContain(`each of those ${failed(off).length} turns`);
    expect(failed(off).length / failed(on).length).toBe(3);
    expect(end(on).ts).toBeLessThan(PRESETS.codesmith.compaction.breakerCooldownMs);
    expect(of(on, 'breaker').map((b) => b.state)).not.toContain('half_open');
    expect(end(on).usd_so_far).toBe(end(off).usd_so_far);
  },

  'breaker-half-open': (lesson, { on, off }) => {
    const summaries = (log: RunEvent[]) => of(log, 'compaction').filter((c) => c.step === 'summary');
    const failed = (log: RunEvent[]) => summaries(log).filter((c) => c.reason === 'the summary call failed');
    const skipped = of(on, 'compaction').filter((c) => c.reason?.startsWith('circuit breaker open'));
    const { breakerCooldownMs } = lesson.config.recovery!.compaction!;
    const [downTo] = lesson.config.faults!.rules!.map((r) =>
      r.when.kind === 'requests' ? Math.max(...r.when.numbers) : 0,
    );
    expect(lesson.failure).toContain(`until the run’s ${downTo}th request`);
    /** The request number of the summary call a breaker or compaction event belongs to. */
    const requestOf = (log: RunEvent[], at: RunEvent) =>
      of(log, 'model_request')
        .filter((r) => r.background && r.seq < at.seq)
        .at(-1)!.request_no;
    expect(lesson.text.does).toContain(`here ${formatMs(breakerCooldownMs!)} of run time`);
    const states = of(on, 'breaker').map((b) => b.state);
    expect(states).toEqual(['closed', 'closed', 'open', 'half_open', 'open', 'half_open', 'closed']);
    for (const open of of(on, 'breaker').filter((b) => b.state === 'open'))
      expect(open.reopen_at! - open.ts).toBe(breakerCooldownMs);
    // Each probe is the first summary call after the cooldown: one fails before the outage is over, one succeeds after it.
    const probes = of(on, 'breaker').filter((b) => b.state === 'half_open');
    const probeRequests = probes.map(
      (p) => of(on, 'model_request').find((r) => r.background && r.seq > p.seq)!.request_no,
    );
    expect(probeRequests.map((n) => n <= downTo!)).toEqual([true, false]);
    expect(lesson.text.costs).toContain(`the probe at turn ${probes[0]!.iteration} fails`);
    expect(lesson.text.costs).toContain(`the probe at turn ${probes[1]!.iteration} succeeds and closes it`);
    expect(of(on, 'breaker').at(-1)!.reason).toBe('the probe succeeded');
    expect(lesson.text.costs).toContain(
      `${failed(on).length} failed summary requests, ${skipped.length} summaries skipped`,
    );
    expect(failed(on)).toHaveLength(DEFAULTS.breakerFailures + 1);
    // Off: a failed summary on every turn before the outage ends, then summaries again.
    expect(of(off, 'breaker')).toHaveLength(0);
    expect(lesson.text.costs).toContain(`— ${failed(off).length} of them —`);
    for (const f of failed(off)) expect(requestOf(off, f)).toBeLessThanOrEqual(downTo!);
    const firstOk = (log: RunEvent[]) => summaries(log).find((c) => c.ok)!.iteration!;
    expect(lesson.text.costs).toContain(`the first summary at turn ${firstOk(off)}`);
    expect(lesson.text.costs).toContain(
      `summarised ${['no', 'one', 'two', 'three', 'four'][firstOk(on) - firstOk(off)]} turns later`,
    );
    const extra = foldTotals(on).inputTokens - foldTotals(off).inputTokens;
    expect(lesson.text.costs).toContain(`about ${n(Math.round(extra / 1000) * 1000)} more input tokens`);
  },

  'reactive-compact': (lesson, { on, off }) => {
    const [trim] = of(on, 'compaction');
    expect(trim).toMatchObject({ step: 'hard_trim', trigger: 'overflow' });
    // s11's last 5, and the call before the oldest of them (a result): 6.
    const kept = Number(/the last (\d+) kept/.exec(trim!.reason)![1]);
    expect(kept).toBe(DEFAULTS.reactiveKeep + 1);
    expect(lesson.text.does).toContain(
      `here ${kept}: the oldest of those ${DEFAULTS.reactiveKeep} is a tool result`,
    );
    expect(trim!.messages_after).toBe(kept + 1);
    expect(lesson.text.costs).toContain(`(the note and the ${kept} kept)`);
    expect(lesson.text.costs).toContain(`from ${trim!.messages_before} messages to ${trim!.messages_after}`);
    const [first, second] = of(on, 'context_overflow');
    expect(second!.outcome).toBe('exhausted');
    expect(lesson.text.costs).toContain(`${second!.iteration! - first!.iteration!} more turns`);
    expect(lesson.text.costs).toContain(`at turn ${second!.iteration}`);
    expect(lesson.text.costs).toContain(`ends the run at turn ${end(off).iteration}`);
  },

  'output-cap-escalation': (lesson, { on, off }) => {
    const steps = of(on, 'output_recovery');
    expect(steps.map((s) => s.action)).toEqual(['escalate', 'continue', 'continue', 'continue']);
    expect(steps.filter((s) => s.action === 'continue')).toHaveLength(DEFAULTS.maxContinuations);
    expect(steps[0]!.next_max_tokens).toBe(lesson.config.recovery!.output!.escalatedMaxTokens);
    const kept = of(on, 'llm_call')
      .filter((c) => !c.background && c.iteration! > 1)
      .reduce((sum, c) => sum + c.output_tokens, 0);
    expect(lesson.text.costs).toContain(`${n(kept)} tokens of answer over ${foreground(on).length} requests`);
    expect(foreground(off)).toHaveLength(1);
    expect(lesson.text.costs).toContain(
      `after one request, with ${end(off).output_tokens} tokens: about a sixth`,
    );
    expect(Math.round(kept / end(off).output_tokens)).toBe(6);
  },

  'cut-tool-calls': (lesson, { on, off }) => {
    const cap = lesson.config.maxOutputTokens!;
    const [cut] = of(on, 'llm_call').filter((c) => c.stop_reason === 'max_tokens');
    expect(cut).toMatchObject({ output_tokens: cap });
    const [refusal] = of(on, 'output_recovery');
    expect(refusal).toMatchObject({ action: 'refuse_truncated', refused: [{ tool: 'write_file' }] });
    expect(toolCalls(on, 'write_file').map((c) => c.status)).toEqual(['refused_truncated']);
    expect(toolCalls(on, 'edit_file').map((c) => c.status)).toEqual(['ok']);
    expect(of(on, 'task_verdict')[0]!.verdict).toBe('done');
    // Off: the same cut call, closed by the repair ladder and run.
    expect(of(off, 'output_recovery')).toHaveLength(0);
    expect(of(off, 'arg_repair').flatMap((r) => r.changes)).toContain('cut-off closing brace added');
    const [written] = toolCalls(off, 'write_file');
    const [, chars] = /^Overwrote src\/slugify\.js \(\d+ lines?, (\d+) chars\)/.exec(written!.result ?? '')!;
    const whole = /src\/slugify\.js \(\d+ lines, (\d+) chars\)/.exec(
      toolCalls(off, 'list_files')[0]!.result ?? '',
    )![1];
    expect(lesson.text.costs).toContain(`the first ${chars} of its ${whole} characters`);
    expect(toolCalls(off, 'edit_file')[0]!.is_error).toBe(true);
    expect(of(off, 'task_verdict')[0]).toMatchObject({ verdict: 'not_done' });
    expect(of(off, 'task_verdict')[0]!.detail).toContain('could not compile (src/slugify.js)');
  },

  'takeover-credentials': (lesson, { on, off }) => {
    const [swap] = of(on, 'swap');
    expect(lesson.failure).toContain(
      `At turn ${swap!.iteration} the run moves from ${swap!.from_model} to ${swap!.to_model}`,
    );
    expect(of(on, 'takeover_report')[0]!.dropped.some((d) => d.kind === 'thinking')).toBe(true);
    const refusal = refusedOnEveryResend(lesson, off, 400);
    expect(refusal.message).toMatch(/Invalid `signature`/);
    expect(end(off).iteration).toBe(swap!.iteration);
  },

  'reasoning-placeholder': (lesson, { on, off }) => {
    const [swap] = of(on, 'swap');
    expect(lesson.failure).toContain(
      `At turn ${swap!.iteration} the run moves from ${swap!.from_model} to ${swap!.to_model}`,
    );
    const turnsGiven = (entries: readonly string[], words: string) =>
      Number(/^(\d+) × /.exec(entries.find((c) => c.includes(words)) ?? '0 × ')![1]);
    const given = turnsGiven(
      of(on, 'takeover_report')[0]!.converted,
      `placeholder reasoning_content "${REASONING_PLACEHOLDER}"`,
    );
    expect(lesson.text.does).toContain(`"${REASONING_PLACEHOLDER}"`);
    expect(lesson.text.costs).toContain(`${given} tool-call turns get the placeholder`);
    // Every tool-call turn before the switch: the ones the first vendor's model wrote.
    expect(given).toBe(
      of(on, 'llm_call').filter((c) => c.iteration! < swap!.iteration && c.stop_reason === 'tool_use').length,
    );
    expect(of(on, 'takeover_report')[0]!.dropped.every((d) => d.kind === 'thinking')).toBe(true);
    expect(lesson.text.costs).toContain(`${swap!.to_model} finishes the task`);
    expect(of(on, 'task_verdict')[0]!.verdict).toBe('done');
    // Naive: the same turns go as they were (the report's as_is), without reasoning_content.
    expect(
      turnsGiven(
        of(off, 'takeover_report')[0]!.as_is ?? [],
        'tool-call turn sent without reasoning_content, as it was',
      ),
    ).toBe(given);
    const refusal = refusedOnEveryResend(lesson, off, 400);
    expect(lesson.text.costs).toContain(`400 "${refusal.message}"`);
    expect(end(off).iteration).toBe(swap!.iteration);
  },

  'fork-onto-responses': (lesson, { on, off }) => {
    const fork = lesson.fork!;
    // Both sides are forks of one stored parent at the lesson's turn, onto the lesson's vendor.
    for (const log of [on, off]) {
      const [link] = of(log, 'forked_from');
      expect(link).toMatchObject({
        turn: fork.atTurn,
        from_vendor: lesson.config.provider.vendor,
        from_model: lesson.config.provider.model,
      });
      expect(lesson.failure).toContain(
        `A finished run on ${link!.from_model} is forked at turn ${link!.turn}`,
      );
      expect(of(log, 'swap')).toEqual([
        expect.objectContaining({
          cause: 'fork',
          iteration: fork.atTurn + 1,
          to_vendor: fork.vendor,
          to_model: fork.model,
        }),
      ]);
    }
    expect(of(on, 'forked_from')[0]!.parent_run_id).toBe(of(off, 'forked_from')[0]!.parent_run_id);
    const [report] = of(on, 'takeover_report');
    const count = (lines: string[], words: string) =>
      Number(/^(\d+) × /.exec(lines.find((c) => c.endsWith(words)) ?? '0 × ')![1]);
    const signed = report!.dropped.filter((d) => d.kind === 'thinking').length;
    const byValue = count(report!.converted, 'message sent by value');
    const liveTurns = end(on).iteration! - fork.atTurn;
    expect(lesson.text.costs).toContain(
      `On: ${signed} signed thinking blocks dropped and ${byValue} messages sent by value`,
    );
    expect(lesson.text.costs).toContain(
      `${fork.model} goes on from turn ${fork.atTurn + 1} and finishes the task in ${liveTurns} turns`,
    );
    expect(report!.converted.some((c) => c.includes('reference'))).toBe(false);
    expect(of(on, 'model_error')).toEqual([]);
    expect(of(on, 'task_verdict')[0]!.verdict).toBe('done');
    expect(
      of(on, 'llm_call')
        .filter((c) => c.iteration! > fork.atTurn)
        .every((c) => c.vendor === fork.vendor),
    ).toBe(true);
    // Naive: the signatures travel as sealed reasoning and the vendor's real 400 ends the fork at once.
    expect(
      count(
        of(off, 'takeover_report')[0]!.as_is ?? [],
        'foreign reasoning sent as an encrypted reasoning item, as it was',
      ),
    ).toBe(signed);
    expect(lesson.text.costs).toContain(`the ${signed} signatures go as encrypted reasoning items`);
    const refusal = refusedOnEveryResend(lesson, off, 400);
    expect(refusal).toMatchObject({
      status: 400,
      rule: 'vendor code invalid_encrypted_content',
      retryable: false,
    });
    expect(refusal.message).toMatch(/^The encrypted content .+ could not be verified\.$/);
    expect(lesson.text.costs).toContain(
      '400 invalid_encrypted_content ("The encrypted content … could not be verified.")',
    );
    expect(of(off, 'llm_call').filter((c) => c.iteration! > fork.atTurn)).toEqual([]);
    expect(end(off).iteration).toBe(fork.atTurn + 1);
  },

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

// A lesson that keeps its claims beside it (a mechanism module's, in its folder) is checked the same way.
for (const lesson of LESSONS) {
  const own = lesson.claims;
  if (own) {
    if (LESSON_CLAIMS[lesson.slug]) throw new Error(`lesson ${lesson.slug}: its claims are written twice`);
    LESSON_CLAIMS[lesson.slug] = (l, runs) => own(l, runs, expect);
  }
}
