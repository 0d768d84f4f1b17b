/**
 * The mechanism's id and config defaults, zod-free (the presets, which the browser's first load
 * reads, take them from here).
 */

export const ID = 'interrupted-repair';

/** The mechanism it follows in teaching order (the mechanisms table, the lessons, the glossary). */
export const AFTER = 'arg-repair';

/** What a config recorded before the mechanism existed ran with (a log recorded before the repair never met a dangling call). */
export const TOOLS_BEFORE = { repairInterrupted: false };

/** Its defaults: off in s11's loop (and every preset built on it), on in CodeSmith's and the course's. */
export const TOOLS_PRESETS = {
  off: { repairInterrupted: false },
  codesmith: { repairInterrupted: true },
  course: { repairInterrupted: true },
};
