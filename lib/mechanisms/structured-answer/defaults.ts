/**
 * The mechanism's id and config defaults, zod-free (the presets, which the browser's first load
 * reads, take them from here).
 */

export const ID = 'structured-answer';

/** The mechanism it follows in teaching order (the mechanisms table, the lessons, the glossary). */
export const AFTER = 'parallel-tool-calls';

/**
 * What a run has when its config says nothing: the repair ladder on, two re-asks. The fields stay
 * out of every preset, so a run without an answer schema (every log recorded before this) keeps
 * its recovery config, and its log, byte for byte; the mechanism acts only when the run config
 * asks for a structured answer (`answer`).
 */
export const DEFAULTS = { answerRepair: true, answerReasks: 2 };

/** The most re-asks a config may give it. */
export const MAX_REASKS = 5;

/** Its tools-group values in each preset: none (DEFAULTS apply). */
export const TOOLS_PRESETS = { off: {}, codesmith: {}, course: {} };

/**
 * The terminate reasons it adds to the run log's, each with the words the run header says it in:
 * the answer had to match a JSON Schema (the run config's `answer`) and the one the run ends with
 * does not — repair and re-asks were off or spent.
 */
export const TERMINATES = {
  invalid_answer: 'ended: the answer does not match the required JSON Schema',
} as const;
