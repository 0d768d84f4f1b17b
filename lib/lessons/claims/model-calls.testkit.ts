import { expect } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { foregroundRetryRule, PRESETS, resolveRecovery } from '@/lib/protocol';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { type Check, end, foreground, minSec, n, of, s1, waited, waitList } from './support.testkit';

/** The claims of the lessons on model calls and streams: the retry ladder, its classifier, the stream watchdogs, the fallbacks. */
export const MODEL_CALL_CLAIMS: Record<string, Check> = {
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
    const backoff = waited(on);
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
    expect(lesson.text.costs).toContain(`waits of ${waitList(on)}`);
    expect(of(on, 'retry_scheduled').at(-1)!.rung).toBe('degrade');
    const fallback = of(on, 'fallback')[0]!;
    for (const call of of(on, 'llm_call')) expect(call.model).toBe(fallback.to_model);
    expect(of(off, 'retry_scheduled')).toHaveLength(DEFAULTS.s11Retries);
    expect(lesson.text.costs).toContain(`— ${minSec(waited(off))} of waiting —`);
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
    expect(lesson.text.costs).toContain(`waits of ${waitList(on)}`);
    // Every answer after the swap comes from the other vendor.
    for (const call of of(on, 'llm_call')) expect(call.vendor).toBe(swap!.to_vendor);
    expect(of(on, 'fallback')).toHaveLength(0);
    expect(of(off, 'swap')).toHaveLength(0);
    expect(of(off, 'retry_scheduled')).toHaveLength(DEFAULTS.s11Retries);
    expect(of(off, 'model_error')).toHaveLength(DEFAULTS.s11Retries + 1);
    expect(lesson.text.costs).toContain(`— ${minSec(waited(off))} of waiting —`);
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
};
