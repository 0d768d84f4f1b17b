/**
 * The waterfall's visible stretch of run time, [from, to] in ms. Zooming keeps the point
 * under the cursor where it is; panning moves the window without changing its width. The
 * window never leaves [0, domain] and never gets narrower than MIN_SPAN_MS.
 */
export interface TimeWindow {
  from: number;
  to: number;
}

export const MIN_SPAN_MS = 50;

export function clampWindow(w: TimeWindow, domain: number): TimeWindow {
  const span = Math.min(Math.max(w.to - w.from, MIN_SPAN_MS), domain);
  const from = Math.min(Math.max(w.from, 0), domain - span);
  return { from, to: from + span };
}

/** Zoom by `factor` (< 1 in, > 1 out) around `at` (a run time inside the window). */
export function zoomWindow(
  w: TimeWindow,
  options: { factor: number; at?: number; domain: number },
): TimeWindow {
  const { factor, domain } = options;
  const at = options.at ?? (w.from + w.to) / 2;
  const span = (w.to - w.from) * factor;
  const share = w.to > w.from ? (at - w.from) / (w.to - w.from) : 0.5;
  return clampWindow({ from: at - share * span, to: at - share * span + span }, domain);
}

/** Pan by a fraction of the window's width (negative: earlier). */
export function panWindow(w: TimeWindow, options: { by: number; domain: number }): TimeWindow {
  const shift = (w.to - w.from) * options.by;
  return clampWindow({ from: w.from + shift, to: w.to + shift }, options.domain);
}

/** Is the window the whole run (nothing to reset)? */
export function isWholeRun(w: TimeWindow, domain: number): boolean {
  return w.from <= 0 && w.to >= domain;
}
