import { describe, expect, it } from 'vitest';
import { isRetryableCategory } from '@/lib/engine/recovery';
import { ErrorCategorySchema, EXCLUSION_FINAL, PRESETS } from '@/lib/protocol';
import { GLOSSARY, glossaryEntry, lessonHref, type GlossaryId } from './glossary';
import { MECHANISM_LIST } from './mechanisms';
import { LESSONS } from '@/lib/lessons';

describe('glossary', () => {
  it('has one entry per anchor, each defined, and every "see also" points at an entry', () => {
    const ids = GLOSSARY.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of GLOSSARY) {
      expect(e.id).toMatch(/^[a-z0-9-]+$/);
      expect(e.definition.length).toBeGreaterThan(40);
      for (const s of 'see' in e ? (e.see ?? []) : []) expect(ids).toContain(s);
    }
  });

  it('defines the words the run view shows', () => {
    const terms = GLOSSARY.map((e) => e.term.toLowerCase()).join('\n');
    for (const word of [
      'silent retry',
      'degrade',
      'rung',
      'backoff',
      'retry-after',
      'jitter',
      'empty',
      'partial',
      'stream idle watchdog',
      'keepalive',
      'stream error cap',
      'fallback model',
      'background account',
      'loop guard',
      'failure budget',
      'short-circuit',
      'output truncation',
      'old-result compaction',
      'stub',
      'micro-compact',
      'proactive summary',
      'overflow waterfall',
      'hard trim',
      'circuit breaker',
      'half-open',
      'output cap escalation',
      'continuation',
      'takeover',
      'signature',
      'foreign thinking',
      'naive takeover',
      'fork',
      'task verdict',
      'terminate reason',
    ]) {
      expect(terms).toContain(word);
    }
  });

  it('reaches every lesson: each switchable mechanism has a term that links to it', () => {
    const linked = new Set(GLOSSARY.map((e) => lessonHref(e)).filter(Boolean));
    for (const m of MECHANISM_LIST) expect(linked, m.id).toContain(`/lessons/${m.lessonSlug}`);
  });

  it('reaches every lesson, a second lesson of a mechanism included', () => {
    const linked = new Set(GLOSSARY.map((e) => lessonHref(e)).filter(Boolean));
    for (const lesson of LESSONS) expect(linked, lesson.slug).toContain(`/lessons/${lesson.slug}`);
  });

  it('quotes each mechanism’s numbers as the presets set them', () => {
    const { codesmith, s11, course } = PRESETS;
    const sec = (ms: number) => `${ms / 1000} s`;
    const expected: [GlossaryId, string[]][] = [
      ['retry-budget', [`${codesmith.retry.maxRetries} retries`]],
      [
        'backoff',
        [
          sec(codesmith.retry.baseDelayMs),
          sec(codesmith.retry.baseDelayMs * 2),
          `capped at ${sec(codesmith.retry.maxDelayMs)}`,
        ],
      ],
      ['jitter', [`±${codesmith.retry.jitterRatio * 100} %`]],
      ['retry-after', [`capped at ${codesmith.retry.retryAfterCapMs / 3_600_000} h`]],
      ['background-account', [`${codesmith.background.maxRetries} retries`]],
      ['fallback-model', [`After ${s11.fallback.afterOverloads} consecutive`]],
      ['degrade', [`${s11.fallback.afterOverloads} consecutive 529s`]],
      ['stream-error-cap', [`After ${codesmith.watchdog.streamErrorCap} consecutive`]],
      [
        'watchdog',
        [`${sec(codesmith.watchdog.baseMs)} by default, plus ${sec(codesmith.watchdog.perRetryMs)}`],
      ],
      ['failure-budget', [`fail ${course.tools.failureBudget} times`]],
      [
        'loop-guard',
        [
          `#${codesmith.tools.blockRepeatAt} is blocked`,
          `${codesmith.tools.warnAfterFailures} consecutive failures`,
          `${codesmith.tools.haltAfterFailures} halt`,
        ],
      ],
      ['truncation', [`over ${course.tools.truncateChars.toLocaleString('en-US')} characters`]],
      [
        'old-result-compaction',
        [
          `over ${course.context.oldResultMinChars.toLocaleString('en-US')} characters`,
          `last ${course.context.keepRecentIterations} turns`,
        ],
      ],
      ['proactive-summary', [`${codesmith.compaction.thresholdRatio * 100} % of the window`]],
      ['overflow-waterfall', [`budget of ${codesmith.compaction.waterfallBudget} recoveries`]],
      ['hard-trim', [`at least ${codesmith.compaction.trimFloor}`]],
      ['reactive-compact', [`last ${s11.compaction.reactiveKeepMessages} messages`]],
      [
        'circuit-breaker',
        [
          `${codesmith.compaction.breakerFailures} consecutive failures`,
          `${codesmith.compaction.breakerCooldownMs / 60_000} min`,
        ],
      ],
      [
        'cap-escalation',
        [
          `${Math.round(s11.output.maxTokens / 1000)} K → ${Math.round(s11.output.escalatedMaxTokens / 1000)} K`,
        ],
      ],
      ['continuation', [`at most ${s11.output.maxContinuations} times`]],
    ];
    for (const [id, parts] of expected)
      for (const part of parts) expect(glossaryEntry(id).definition, id).toContain(part);
  });

  it('names as ending a call at once exactly the error categories the classifier does not retry', () => {
    const words: Record<string, string> = {
      authentication: 'authentication',
      authorization: 'permission',
      invalid_input: 'invalid-request',
      context_length: 'context-length',
    };
    const definition = glossaryEntry('whitelist-retry').definition;
    const notRetried = ErrorCategorySchema.options.filter((c) => !isRetryableCategory(c));
    expect(notRetried.sort()).toEqual(Object.keys(words).sort());
    for (const c of notRetried) expect(definition).toContain(words[c]);
  });

  it('names what CodeSmith’s exclusion rule fails at once: exactly its final categories', () => {
    const words: Record<string, string> = {
      authentication: 'authentication',
      authorization: 'permission',
      context_length: 'context overflow',
    };
    expect([...EXCLUSION_FINAL].sort()).toEqual(Object.keys(words).sort());
    const said = /CodeSmith’s exclusion rule [^(]*\(only ([^)]*) fail at once\)/.exec(
      glossaryEntry('whitelist-retry').definition,
    )?.[1];
    expect(said).toBe(`${words.authentication}, ${words.authorization} and ${words.context_length}`);
  });
});
