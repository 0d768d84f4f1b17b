import { describe, expect, it } from 'vitest';
import { ANSWER_GUARD_MS, answerCells, runAnswerCell } from './answer-cells';
import { MATRIX_VENDORS } from './cells';

describe('structured answers in the matrix (each answer fault, virtual clock)', () => {
  const cells = answerCells();
  const runnable = cells.filter((c) => !('notApplicable' in c.promise));

  it('covers every vendor and fault, with the mechanism on, its repair off and all of it off', () => {
    expect(new Set(cells.map((c) => c.vendor))).toEqual(new Set(MATRIX_VENDORS));
    expect(new Set(runnable.map((c) => c.fault))).toEqual(
      new Set(['invalid_json', 'breaks_schema', 'truncated', 'refusal']),
    );
    expect(cells.filter((c) => 'notApplicable' in c.promise).map((c) => `${c.vendor} ${c.fault}`)).toEqual(
      cells
        .filter((c) => c.vendor === 'sim-anthropic' && c.fault === 'invalid_json')
        .map((c) => `${c.vendor} ${c.fault}`),
    );
    expect(runnable.some((c) => 'reason' in c.promise && c.promise.reason === 'invalid_answer')).toBe(true);
  });

  it.each(runnable.map((cell) => [`${cell.vendor} × ${cell.fault} × ${cell.setting.label}`, cell] as const))(
    '%s',
    async (_, cell) => {
      const result = await runAnswerCell(cell, { guardMs: ANSWER_GUARD_MS });
      expect(result.failures).toEqual([]);
    },
  );
});
