/** A run config's defaults the page shows and sends, without a schema (config.ts's schemas default to them). */

/** The turn budget's default: model turns (iterations) in one run. */
export const DEFAULT_MAX_ITERATIONS = 30;
/** The cost budget's default, in US dollars. */
export const DEFAULT_MAX_COST_USD = 1;
/** The run-time budget's default: 30 minutes of run clock, so even a stall with no watchdog ends. */
export const DEFAULT_MAX_RUN_MS = 1_800_000;
/** The attempt budget's default: model requests of any kind (foreground and background) in one run. */
export const DEFAULT_MAX_ATTEMPTS = 200;
/** The most swaps a config holds, planned and recorded from swaps made by hand alike. */
export const MAX_SCHEDULED_SWAPS = 20;

/**
 * The system prompt a run gets when its config names none: what the playground shows as the
 * placeholder, so the text on screen is the text sent.
 */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a careful coding agent working in a small project. Use the tools to look around, read and change files, ' +
  'and run the check. When the work is done, finish with a short summary of what you changed and why.';
