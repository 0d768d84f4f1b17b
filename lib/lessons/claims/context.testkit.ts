import { expect } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { formatMs, PRESETS } from '@/lib/protocol';
import { foldTotals } from '@/lib/protocol/run-totals';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { type Check, end, foreground, k1, n, of, toolCalls, usd3 } from './support.testkit';

/** The claims of the lessons on the context and the output cap: truncation, compaction, caching, summaries, the breaker. */
export const CONTEXT_CLAIMS: Record<string, Check> = {
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
};
