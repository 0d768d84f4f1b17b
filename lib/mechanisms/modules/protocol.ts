import * as injectionGuard from '@/lib/mechanisms/injection-guard/protocol';
import * as interruptedRepair from '@/lib/mechanisms/interrupted-repair/protocol';
import * as parallelToolCalls from '@/lib/mechanisms/parallel-tool-calls/protocol';
import * as structuredAnswer from '@/lib/mechanisms/structured-answer/protocol';
import * as subagents from '@/lib/mechanisms/subagents/protocol';

/**
 * The mechanism modules' schemas — their events and config fields — as lib/protocol reads them
 * (the run event union, the recovery config); their ids and defaults, zod-free, are in ./about.ts.
 * A module is one folder under lib/mechanisms/; this list, and its siblings in this folder, are
 * where it is registered (docs/ARCHITECTURE.md, "Add a mechanism").
 */

/** Every module's events (each joins the run event union). */
export const MODULE_EVENT_SCHEMAS = [
  ...interruptedRepair.EVENTS,
  ...parallelToolCalls.EVENTS,
  ...structuredAnswer.EVENTS,
  ...injectionGuard.EVENTS,
  ...subagents.EVENTS,
] as const;

/** The modules' fields of the recovery config's tools group. */
export const MODULE_TOOLS_CONFIG = {
  ...interruptedRepair.TOOLS_CONFIG,
  ...parallelToolCalls.TOOLS_CONFIG,
  ...structuredAnswer.TOOLS_CONFIG,
  ...injectionGuard.TOOLS_CONFIG,
  ...subagents.TOOLS_CONFIG,
};

/** The same fields as a recorded config parses them (with what a log recorded before them ran). */
export const MODULE_TOOLS_CONFIG_RECORDED = {
  ...interruptedRepair.TOOLS_CONFIG_RECORDED,
  ...parallelToolCalls.TOOLS_CONFIG_RECORDED,
  ...structuredAnswer.TOOLS_CONFIG_RECORDED,
  ...injectionGuard.TOOLS_CONFIG_RECORDED,
  ...subagents.TOOLS_CONFIG_RECORDED,
};

/**
 * The modules' fields of the fault plan (each an optional list of the faults a module brings,
 * applied by its own engine.ts and simulated model, lib/mechanisms/modules/engine.ts).
 */
export const MODULE_FAULT_PLAN = { ...injectionGuard.FAULT_PLAN, ...subagents.FAULT_PLAN };
