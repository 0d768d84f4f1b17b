import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TotalsDiffRow } from '@/lib/protocol/http/compare';
import { TotalsRows } from './totals-rows';

const ROWS: TotalsDiffRow[] = [
  {
    id: 'errorsSeen',
    label: 'errors the user would have seen',
    unit: 'count',
    a: 0,
    b: 1,
    better: 'a',
    note: null,
  },
  { id: 'wallMs', label: 'wall time', unit: 'ms', a: 1500, b: 1500, better: null, note: null },
  {
    id: 'usd',
    label: 'cost',
    unit: 'usd',
    a: 0.04,
    b: 0,
    better: null,
    note: 'not judged: only one run finished its work',
  },
];

const render = (sides: { a: string; b: string }, rowTestId: string) =>
  renderToStaticMarkup(createElement(TotalsRows, { rows: ROWS, sides, rowTestId }));

describe('TotalsRows', () => {
  it('names the better side in words with the names each page gives its sides', () => {
    expect(render({ a: 'A', b: 'B' }, 'totals-row')).toContain('▲ A');
    const lesson = render({ a: 'on', b: 'off' }, 'lesson-total');
    expect(lesson).toContain('▲ on');
    expect(lesson).toContain('data-testid="lesson-total"');
    expect(lesson).toContain('data-better="a"');
  });

  it('says "same" for an unjudged equal row and formats values by unit', () => {
    const html = render({ a: 'A', b: 'B' }, 'totals-row');
    expect(html).toContain('same');
    expect(html).not.toContain('>1500<');
  });

  it('never writes two different costs as the same figure, and says "same" for equal ones', () => {
    const rows: TotalsDiffRow[] = [
      { id: 'usd', label: 'cost', unit: 'usd', a: 0.116407, b: 0.115715, better: 'b', note: null },
      { id: 'usd', label: 'cost again', unit: 'usd', a: 0.036, b: 0.036, better: null, note: null },
    ];
    const html = renderToStaticMarkup(
      createElement(TotalsRows, { rows, sides: { a: 'A', b: 'B' }, rowTestId: 'totals-row' }),
    );
    expect(html).toContain('$0.1164');
    expect(html).toContain('$0.1157');
    expect(html).toContain('same');
  });

  it('says why a differing row is not judged instead of leaving it blank', () => {
    expect(render({ a: 'A', b: 'B' }, 'totals-row')).toContain('not judged: only one run finished its work');
  });
});
