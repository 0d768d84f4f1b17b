import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { describeOverrides } from './describe-overrides';
import { LESSONS, lessonRunConfig } from '@/lib/lessons';

const of = (input: Parameters<typeof RunConfigSchema.parse>[0]) =>
  describeOverrides(RunConfigSchema.parse(input));

describe('describeOverrides', () => {
  it('tells every lesson’s two sides apart, naming the lesson’s mechanism', () => {
    for (const lesson of LESSONS) {
      const on = of(lessonRunConfig(lesson, 'on', { clock: 'virtual' }));
      const off = of(lessonRunConfig(lesson, 'off', { clock: 'virtual' }));
      expect(on, lesson.slug).not.toEqual(off);
      expect(
        [
          ...off.filter((l) => l === `${lesson.mechanism} off`),
          ...on.filter((l) => l === `${lesson.mechanism} on`),
        ],
        lesson.slug,
      ).toHaveLength(1);
    }
  });

  it('names a switched-off mechanism by its id, a switched-on one too, and any other field by its path', () => {
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'codesmith',
        recovery: { retry: { enabled: false, maxRetries: 5 } },
      }),
    ).toEqual(['retry off', 'retry.maxRetries = 5']);
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'codesmith',
        recovery: { fallback: { enabled: true } },
      }),
    ).toEqual(['fallback on']);
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'codesmith',
        recovery: { tools: { failureBudget: 100, shortCircuitRepeats: false } },
      }),
    ).toEqual(['tools.failureBudget = 100']);
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'course',
        recovery: { tools: { failureBudget: 100, shortCircuitRepeats: false } },
      }),
    ).toEqual(['failure-budget off']);
    expect(of({ provider: { vendor: 'sim-anthropic' }, takeover: { naive: true } })).toEqual([
      'takeover-handling off',
    ]);
  });

  it('lists nothing for an override equal to the preset’s own value', () => {
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'codesmith',
        recovery: { retry: { enabled: true, maxRetries: 3 } },
      }),
    ).toEqual([]);
    expect(
      of({
        provider: { vendor: 'sim-anthropic' },
        preset: 'naive',
        recovery: { watchdog: { enabled: false } },
      }),
    ).toEqual([]);
  });

  it('reads a stored config with a preset this build does not know as the overrides written', () => {
    expect(describeOverrides({ preset: 'future' as never, recovery: { retry: { maxRetries: 2 } } })).toEqual([
      'retry.maxRetries = 2',
    ]);
  });
});
