/**
 * The mechanism's id and config defaults, zod-free (the presets, which the browser's first load
 * reads, take them from here).
 */

export const ID = 'subagents';

/** The mechanism it follows in teaching order (the mechanisms table, the lessons, the glossary). */
export const AFTER = 'structured-answer';

/**
 * What a run has when its config says nothing: no delegate tool (so every log recorded before
 * this keeps its tools and its bytes); when a config offers it, each child gets 6 turns and an
 * attempt account of its own (8 requests), and a child whose vendor failed is tried once more.
 */
export const DEFAULTS = {
  delegate: false,
  subagentTurns: 6,
  subagentAttempts: 8,
  subagentSharesAttempts: false,
  subagentRetries: 1,
};

/** The most a config may give a child. */
export const MAX_TURNS = 50;
export const MAX_ATTEMPTS = 100;
export const MAX_RETRIES = 3;

/** Its tools-group values in each preset: none (DEFAULTS apply). */
export const TOOLS_PRESETS = { off: {}, codesmith: {}, course: {} };
