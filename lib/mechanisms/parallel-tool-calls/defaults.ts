/**
 * The mechanism's id and config defaults, zod-free (the presets, which the browser's first load
 * reads, take them from here).
 */

export const ID = 'parallel-tool-calls';

/** The mechanism it follows in teaching order (the mechanisms table, the lessons, the glossary). */
export const AFTER = 'interrupted-repair';

/** What a config recorded before the mechanism existed ran with (a log recorded before this ran every call one at a time). */
export const TOOLS_BEFORE = { maxParallel: 1 };

/** Its defaults: s11's and the course's loops run a turn's calls one after another; CodeSmith 4 at once. */
export const TOOLS_PRESETS = {
  off: { maxParallel: 1 },
  codesmith: { maxParallel: 4 },
  course: {},
};
