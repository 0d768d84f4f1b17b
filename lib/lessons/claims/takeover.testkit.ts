import { expect } from 'vitest';
import { REASONING_PLACEHOLDER } from '@/lib/trajectory/render-openai';
import { type Check, end, of, refusedOnEveryResend } from './support.testkit';

/** The claims of the lessons on taking a run over: the credentials it needs, the reasoning a naive history drops, a fork onto another API. */
export const TAKEOVER_CLAIMS: Record<string, Check> = {
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
};
