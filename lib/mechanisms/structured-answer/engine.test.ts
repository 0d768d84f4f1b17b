import { describe, expect, it } from 'vitest';
import type { AnswerFaultKind, RunConfigInput, RunEvent } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

const SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string' },
    files_changed: { type: 'integer', minimum: 1 },
    done: { type: 'boolean' },
  },
  required: ['summary', 'files_changed', 'done'],
  additionalProperties: false,
};

async function play(
  vendor: string,
  kind: AnswerFaultKind | undefined,
  extra: Partial<RunConfigInput> = {},
  onBody?: (body: string) => void,
): Promise<RunEvent[]> {
  return runToEnd(
    {
      provider: { vendor },
      preset: 'codesmith',
      seed: 2,
      answer: { schema: SCHEMA },
      ...(kind ? { faults: { rules: [], tools: [], answers: [{ id: 'a', kind, times: 1 }] } } : {}),
      ...extra,
    },
    onBody ? { onVendorRequest: (request) => onBody(request.body) } : {},
  );
}

const answers = (log: RunEvent[]) => ofType(log, 'structured_answer');

describe('the structured-answer mechanism', () => {
  it('does nothing in a run that asks for no schema', async () => {
    const log = await runToEnd({ provider: { vendor: 'sim-openai' }, preset: 'codesmith', seed: 2 });
    expect(answers(log)).toEqual([]);
  });

  it('accepts an answer that matches as it came', async () => {
    const log = await play('sim-openai', undefined);
    expect(answers(log)).toMatchObject([{ outcome: 'valid', next: 'accept', value: { files_changed: 1 } }]);
    expect(terminateOf(log).reason).toBe('end_turn');
  });

  it('invalid JSON: jsonrepair makes it valid and the repaired answer is kept', async () => {
    const log = await play('sim-openai', 'invalid_json');
    const [a] = answers(log);
    expect(a).toMatchObject({ outcome: 'repaired', next: 'accept', value: { done: true, files_changed: 1 } });
    expect(a!.ladder.map((r) => [r.rung, r.ok])).toEqual([
      ['parse', false],
      ['jsonrepair', true],
      ['schema', true],
    ]);
  });

  it('breaks the schema: coercion fixes the number, the missing field is re-asked, the second answer matches', async () => {
    const bodies: string[] = [];
    const log = await play('sim-anthropic', 'breaks_schema', {}, (body) => bodies.push(body));
    const [first, second] = answers(log);
    expect(first).toMatchObject({ outcome: 'invalid', next: 'reask', reasks: 1, max_reasks: 2 });
    expect(first!.ladder.find((r) => r.rung === 'coerce')?.detail).toContain('files_changed: "1" → 1');
    expect(first!.errors).toEqual(['summary: Invalid input: expected string, received undefined']);
    // The re-ask names the error to the model: the next request carries it.
    expect(bodies.at(-2)).toContain(
      'Your answer does not match the required JSON Schema:\\n- summary: Invalid input',
    );
    expect(second).toMatchObject({ outcome: 'valid', next: 'accept' });
    expect(terminateOf(log).reason).toBe('end_turn');
  });

  it('off: the run ends with the invalid answer and says so', async () => {
    const log = await play('sim-anthropic', 'breaks_schema', {
      recovery: { tools: { answerRepair: false, answerReasks: 0 } },
    });
    expect(answers(log)).toMatchObject([{ outcome: 'invalid', next: 'run_ends' }]);
    expect(answers(log)[0]!.ladder.map((r) => r.rung)).toEqual(['parse', 'schema']);
    expect(terminateOf(log)).toMatchObject({ reason: 'invalid_answer', complete: false });
    expect(terminateOf(log).message).toContain('does not match the schema');
  });

  it('a refusal is not repaired: the run ends refused', async () => {
    const log = await play('sim-openai-responses', 'refusal');
    expect(answers(log)).toMatchObject([{ outcome: 'refused', next: 'run_ends' }]);
    expect(terminateOf(log).reason).toBe('refusal');
  });

  it('a budget of re-asks is bounded: every answer broken, the run ends after the last re-ask', async () => {
    const log = await runToEnd({
      provider: { vendor: 'sim-openai' },
      preset: 'codesmith',
      seed: 2,
      answer: { schema: SCHEMA },
      faults: { rules: [], tools: [], answers: [{ id: 'a', kind: 'breaks_schema' }] },
    });
    expect(answers(log).map((a) => [a.next, a.reasks])).toEqual([
      ['reask', 1],
      ['reask', 2],
      ['run_ends', 2],
    ]);
  });

  it('a truncated answer is the output cap’s: it resends with a higher cap, and the answer that comes back matches', async () => {
    const log = await play('sim-openai', 'truncated', { maxOutputTokens: 400, preset: 's11' });
    expect(ofType(log, 'output_recovery')).toMatchObject([{ action: 'escalate', stop_reason: 'max_tokens' }]);
    expect(answers(log)).toMatchObject([{ outcome: 'valid', next: 'accept' }]);
  });
});
