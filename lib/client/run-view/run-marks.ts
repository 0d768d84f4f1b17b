/**
 * Performance marks along the path from "Run" to the first event on screen, so the time a
 * person waits can be read off the page itself (`npm run bench` reads them in Chromium):
 * click → POST answered → stream open → first event received → first event painted.
 */
export const RUN_MARKS = {
  click: 'loop-lab:run-click',
  created: 'loop-lab:run-created',
  streamOpen: 'loop-lab:stream-open',
  firstEvent: 'loop-lab:first-event',
  firstPaint: 'loop-lab:first-event-painted',
} as const;

export type RunMark = (typeof RUN_MARKS)[keyof typeof RUN_MARKS];

export function markRun(name: RunMark): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

/** Marks once the browser has painted what was just committed: the frame after the next one starts. */
export function markAfterPaint(name: RunMark): void {
  if (typeof requestAnimationFrame !== 'function') return markRun(name);
  requestAnimationFrame(() => setTimeout(() => markRun(name), 0));
}
