import { describe, expect, it } from 'vitest';
import type { RunConfigInput, RunEvent } from '@/lib/protocol';
import { runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { explainEvent, type ExplainedEvent, type Explanation } from './explain-event';
import { claimsOf, findContradictions } from './why-claims';

/**
 * The why lines as the browser inferred them before the engine wrote its decisions: each
 * read one event and guessed what came next. Kept here to show the check catches them.
 */
function inferredExplain(e: ExplainedEvent): Explanation | undefined {
  if (e.event === 'watchdog_fired' && e.outcome === 'empty') {
    return {
      why: `No stream event and no content yet (Empty): nothing was billed, so attempt ${e.attempt + 1} goes out at once.`,
      term: 'empty',
    };
  }
  if (e.event === 'model_error' && e.retryable && e.category !== 'context_length') {
    return {
      why: `Error (rule ${e.rule}) on attempt ${e.attempt}: a retryable kind — retried while the retry budget lasts.`,
      term: 'error-category',
    };
  }
  return explainEvent(e);
}

const overloaded = (numbers: number[]) => ({
  id: 'overloaded',
  enabled: true,
  when: { kind: 'requests' as const, numbers },
  action: { type: 'http_error' as const, status: 529 as const },
});

function codesmith(rules: object[]): Omit<RunConfigInput, 'provider'> {
  return { preset: 'codesmith', seed: 1, faults: { rules, tools: [] } } as Omit<RunConfigInput, 'provider'>;
}

describe('claimsOf: what a why line says comes next', () => {
  it('reads attempts, retries, the run ending and a presented Partial; negations claim nothing', () => {
    expect(claimsOf('Attempt 3 of 4 after 2.1 s: backoff.')).toEqual([{ kind: 'attempt', attempt: 3 }]);
    expect(claimsOf('nothing was billed, so attempt 5 goes out at once.')).toEqual([
      { kind: 'attempt', attempt: 5 },
    ]);
    expect(claimsOf('a retryable kind — retried while the retry budget lasts.')).toEqual([
      { kind: 'retried' },
    ]);
    expect(claimsOf('what arrived is presented, not retried')).toEqual([{ kind: 'presented' }]);
    expect(claimsOf('No retry — retry budget of 3 spent; the error surfaces and the run ends.')).toEqual([
      { kind: 'run_ends' },
    ]);
    expect(claimsOf('Overloaded on attempt 2 (rule status:529): classified as a retryable kind.')).toEqual(
      [],
    );
  });
});

describe('every why line of a run is borne out by what the run did next', () => {
  it('three 529s then a silent stall on CodeSmith: the budget is spent, and no line promises a fifth attempt', async () => {
    const events = await runToEnd(
      codesmith([
        overloaded([1, 2, 3]),
        {
          id: 'stall',
          enabled: true,
          when: { kind: 'requests', numbers: [4] },
          action: { type: 'stall', afterEvents: 1 },
        },
      ]),
    );
    expect(terminateOf(events).reason).toBe('retries_exhausted');
    expect(findContradictions(events)).toEqual([]);
    // The inferred lines promised an attempt 5 that never went out.
    const inferred = findContradictions(events, inferredExplain);
    expect(inferred.map((c) => c.claim)).toContain('attempt 5 goes out, but no attempt 5 followed');
    const declined = events.find(
      (e): e is Extract<RunEvent, { event: 'retry_declined' }> => e.event === 'retry_declined',
    );
    expect(declined).toMatchObject({ attempt: 4, rule: 'budget_spent', next: 'surface' });
  });

  it('a drop inside tool-call arguments: the Partial is kept, and no line says it was retried', async () => {
    const events = await runToEnd(
      codesmith([
        {
          id: 'drop',
          enabled: true,
          when: { kind: 'requests', numbers: [1] },
          action: { type: 'drop', during: 'tool_args' },
        },
      ]),
    );
    expect(findContradictions(events)).toEqual([]);
    expect(events.some((e) => e.event === 'retry_declined' && e.rule === 'partial_kept')).toBe(true);
    expect(findContradictions(events, inferredExplain).map((c) => c.claim)).toContain(
      'attempt 1 is retried, but no retry of it was scheduled',
    );
  });

  it('retry off: an overload is declined by the retry_off rule and surfaces', async () => {
    const events = await runToEnd({
      ...codesmith([overloaded([1])]),
      recovery: { retry: { enabled: false } },
    } as Omit<RunConfigInput, 'provider'>);
    expect(findContradictions(events)).toEqual([]);
    expect(events.find((e) => e.event === 'retry_declined')).toMatchObject({
      rule: 'retry_off',
      next: 'surface',
    });
    expect(findContradictions(events, inferredExplain)).not.toEqual([]);
  });
});
