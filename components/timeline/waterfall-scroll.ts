import { countOf } from '@/lib/run-view/format';

/** The waterfall's rows box is this tall (Tailwind max-h-64); past it, rows scroll inside it. */
export const ROWS_VIEWPORT_PX = 256;

/**
 * What the rows box hides, said under it: the box scrolls on its own, so without a word a
 * long run looked like it ended at turn 7. Null when every row is in view. A row cut by an
 * edge counts as in view.
 */
export function rowsOutOfViewCaption(options: {
  rows: number;
  scrollTop: number;
  rowPx: number;
  viewportPx?: number;
}): string | null {
  const { rows, scrollTop, rowPx, viewportPx = ROWS_VIEWPORT_PX } = options;
  if (rows * rowPx <= viewportPx) return null;
  const above = Math.min(rows, Math.floor(scrollTop / rowPx));
  const below = Math.max(0, rows - Math.ceil((scrollTop + viewportPx) / rowPx));
  const parts = [
    above > 0 ? `↑ ${countOf(above, 'row')} above` : null,
    below > 0 ? `↓ ${countOf(below, 'row')} below` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `${parts.join(' · ')} — scroll the waterfall`;
}
