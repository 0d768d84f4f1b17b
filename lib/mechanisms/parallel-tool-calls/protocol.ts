import { z } from 'zod';
import { turn } from '@/lib/protocol/event-families/fields';
import { TOOLS_BEFORE } from './defaults';

export { ID } from './defaults';

/** Its config: a field of the recovery config's tools group. */
export const TOOLS_CONFIG = {
  /**
   * Calls of one turn that may run at once, where their tools allow it (a tool that changes the
   * workspace always runs alone); 1 runs every call one after another.
   */
  maxParallel: z.number().int().min(1).max(16),
};

/** As a recorded config is parsed: a log recorded before this ran every call one at a time. */
export const TOOLS_CONFIG_RECORDED = {
  maxParallel: TOOLS_CONFIG.maxParallel.default(TOOLS_BEFORE.maxParallel),
};

/**
 * The loop's tool step put several calls of one turn into a group: run together (each tool
 * declares whether it may run beside others, at most `tools.maxParallel` at once) or one at
 * a time. Written by the tool step before the group runs.
 */
export const ToolBatchEventSchema = z.object({
  ...turn,
  event: z.literal('tool_batch'),
  /** The group's calls, in the order the model made them (and their results go back in). */
  call_ids: z.array(z.string()).min(1),
  tools: z.array(z.string()).min(1),
  /** true: the calls run at once; false: this call runs alone (a tool that must not run beside others, or the limit is 1). */
  parallel: z.boolean(),
  /** The per-turn limit in force (`tools.maxParallel`). */
  limit: z.number().int().min(1),
  /** The decision in words, written where it was made. */
  why: z.string(),
});

/** The events this mechanism writes. */
export const EVENTS = [ToolBatchEventSchema] as const;
