import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CopiedPart, TotalsDiffRow } from '@/lib/protocol/http/compare';
import { copiedNote } from './copied-note';
import { TotalsRows } from './totals-rows';

/** A fork's copied part as the fold gives it (2 turns of its parent, 4.1 s, 1,382 tokens in). */
const part: CopiedPart = { turns: 2, durationMs: 4_100, inputTokens: 1_382, outputTokens: 36, usd: 0.004686 };

const row = (id: string, unit: TotalsDiffRow['unit'], a: number, b: number): TotalsDiffRow => ({
  id,
  label: id,
  unit,
  a,
  b,
  better: 'b',
  note: null,
});

describe('what a fork copied, under its totals', () => {
  it('says the copied turns and their time under the run time, and the time after the fork', () => {
    expect(copiedNote({ id: 'durationMs' }, 9_600, part)).toEqual([
      'incl. 2 copied turns: 4.1 s',
      'after the fork: 5.5 s',
    ]);
    expect(copiedNote({ id: 'durationMs' }, 9_600, { ...part, turns: 1 })).toEqual([
      'incl. 1 copied turn: 4.1 s',
      'after the fork: 5.5 s',
    ]);
    expect(copiedNote({ id: 'inputTokens' }, 5_000, part)).toEqual(['incl. 1,382 copied']);
    expect(copiedNote({ id: 'outputTokens' }, 90, part)).toEqual(['incl. 36 copied']);
    expect(copiedNote({ id: 'usd' }, 0.01, part)).toEqual(['incl. $0.0047 copied']);
  });

  it('says nothing for a run that is not a fork, or a line with no copied part', () => {
    expect(copiedNote({ id: 'durationMs' }, 9_600, null)).toBeNull();
    expect(copiedNote({ id: 'attempts' }, 4, part)).toBeNull();
    expect(copiedNote({ id: 'errorsSeen' }, 0, part)).toBeNull();
  });

  it("is drawn under the fork's side only", () => {
    const rows = [row('durationMs', 'ms', 8_000, 9_600), row('attempts', 'count', 4, 5)];
    const html = renderToStaticMarkup(
      createElement(TotalsRows, {
        rows,
        sides: { a: 'A', b: 'B' },
        rowTestId: 'totals-row',
        copied: { a: null, b: part },
      }),
    );
    expect(html.match(/data-testid="copied-note"/g)).toHaveLength(1);
    expect(html).toContain('incl. 2 copied turns: 4.1 s');
    expect(html).toContain('after the fork: 5.5 s');
    const plain = renderToStaticMarkup(
      createElement(TotalsRows, { rows, sides: { a: 'A', b: 'B' }, rowTestId: 'totals-row' }),
    );
    expect(plain).not.toContain('copied');
  });
});
