import { describe, expect, it } from 'vitest';
import { AnswerScorerSchema } from '@/lib/protocol';
import { scoreAnswer } from './score-answer';

const scorer = (raw: unknown) => AnswerScorerSchema.parse(raw);

describe('answer scorers', () => {
  it('contains: the text, case kept unless told', () => {
    const s = scorer({ kind: 'contains', text: 'Pool.max' });
    expect(scoreAnswer(s, 0, 'raised pool.max to 25')).toMatchObject({ id: 'contains-1', passed: false });
    expect(
      scoreAnswer(scorer({ kind: 'contains', text: 'Pool.max', ignoreCase: true }), 0, 'raised pool.max'),
    ).toMatchObject({
      passed: true,
      reason: 'the answer contains "Pool.max" (case ignored)',
    });
  });

  it('regex: names where it matched', () => {
    const s = scorer({ kind: 'regex', id: 'line', pattern: 'line \\d+', flags: 'i' });
    expect(scoreAnswer(s, 0, 'The ERROR at LINE 1742 says …')).toEqual({
      id: 'line',
      kind: 'regex',
      passed: true,
      reason: 'the answer matches /line \\d+/i at "LINE 1742"',
    });
    expect(scoreAnswer(s, 0, 'no number here').passed).toBe(false);
  });

  it('json_schema: the answer alone or in a ```json fence, read with z.fromJSONSchema', () => {
    const s = scorer({
      kind: 'json_schema',
      schema: { type: 'object', properties: { max: { type: 'integer', minimum: 25 } }, required: ['max'] },
    });
    expect(scoreAnswer(s, 2, '{"max": 25}')).toMatchObject({ id: 'json_schema-3', passed: true });
    expect(scoreAnswer(s, 0, 'Done.\n```json\n{"max": 30}\n```\n').passed).toBe(true);
    const low = scoreAnswer(s, 0, '{"max": 10}');
    expect(low.passed).toBe(false);
    expect(low.reason).toMatch(/^the schema refuses the answer's JSON: max: /);
    expect(scoreAnswer(s, 0, 'I raised it to 25').reason).toMatch(/^the answer is not JSON: /);
  });

  it('no final answer fails every scorer and says so', () => {
    expect(scoreAnswer(scorer({ kind: 'contains', text: 'x' }), 0, undefined)).toMatchObject({
      passed: false,
      reason: 'the run ended without a final answer to check',
    });
  });
});
