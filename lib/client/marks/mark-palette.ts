/**
 * The drawn marks' palette: which CSS colour variables (app/globals.css, the one place their
 * values live, per theme) are painted as marks that carry meaning, and the series colours and
 * shapes charts use to tell configurations apart. Every colour here must read at 3:1 or more on
 * the page's surfaces in both themes (WCAG 1.4.11, checked by mark-palette.test.ts), and a
 * series always pairs its colour with a shape so colour is never the only cue (WCAG 1.4.1).
 */

/** Accents drawn as bars, dots, lamps and lines (meanings: wait amber, fail red, ok green, compaction violet, takeover blue, live run). */
export const MARK_ACCENTS = ['wait', 'fail', 'ok', 'compact', 'takeover', 'run', 'faint'] as const;

/** Surfaces a mark can sit on. */
export const MARK_SURFACES = ['bg', 'panel', 'sunken'] as const;

export const SERIES_COUNT = 8;

/** recharts' built-in symbol shapes, in the order series take them. */
export const SERIES_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'cross', 'star', 'wye'] as const;
export type SeriesShape = (typeof SERIES_SHAPES)[number];

/** The colour of series `i`, as a CSS value that follows the theme. */
export function seriesColour(i: number): string {
  return `var(--c-series-${i % SERIES_COUNT})`;
}

/**
 * The shape of series `i`. Colours and shapes cycle at different lengths (8 and 7), so up to
 * 56 series differ in at least one of them, and neighbours differ in both.
 */
export function seriesShape(i: number): SeriesShape {
  return SERIES_SHAPES[i % SERIES_SHAPES.length]!;
}
