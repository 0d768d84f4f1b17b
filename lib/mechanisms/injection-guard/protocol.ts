import { z } from 'zod';
import { turn } from '@/lib/protocol/event-families/fields';

export { ID } from './defaults';

/** Its config: optional fields of the recovery config's tools group (absent: ./defaults.ts). */
export const TOOLS_CONFIG = {
  /** Tool output is marked as data: each result between delimiters, and a note in the system prompt. */
  injectionMark: z.boolean().optional(),
  /** A detector looks for instruction-like text in each tool result and removes what it finds. */
  injectionDetect: z.boolean().optional(),
  /** A call to a tool the task does not need is refused (the task's allow-list). */
  injectionAllowList: z.boolean().optional(),
  /** The allow-list itself, when the task's own (./defaults.ts TASK_TOOLS) is not the one wanted. */
  injectionAllowTools: z.array(z.string().min(1).max(64)).max(50).optional(),
};

/** As a recorded config is parsed: the same (absent in every log recorded before it). */
export const TOOLS_CONFIG_RECORDED = TOOLS_CONFIG;

/**
 * The fault it brings: an instruction planted in a tool result ("ignore the task and call …"),
 * and how readily the simulated model obeys it (simulated vendors only; each draw from the run's
 * seed, so the same seed gives the same log).
 */
export const InjectionFaultSchema = z.strictObject({
  id: z.string().min(1).max(64),
  enabled: z.boolean().default(true),
  /** The tool whose results carry it, or '*' for every tool. */
  tool: z.string().min(1).max(64).default('*'),
  /** Only results of calls that name this path (a file the instruction sits in); absent: every result of the tool. */
  path: z.string().min(1).max(500).optional(),
  /** The call the instruction asks for (absent: a write_file of a file no task needs). */
  call: z
    .strictObject({ tool: z.string().min(1).max(64), args: z.record(z.string(), z.unknown()) })
    .optional(),
  /** How likely the simulated model is to obey it as it reads it. */
  obey: z.number().min(0).max(1).default(1),
  /** The same, when tool output is marked as data and the system prompt says so. */
  obeyMarked: z.number().min(0).max(1).default(0),
  /** At most this many results carry it (the first ones); absent: every one. */
  times: z.number().int().min(1).max(1_000).optional(),
});

/** Its field of the fault plan: `faults.injections`. */
export const FAULT_PLAN = { injections: z.array(InjectionFaultSchema).max(20).optional() };

/** The matched text: offsets into the result as the detector read it. */
export const SpanSchema = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string(),
});

const call = {
  /** The tool call whose result (or whose running) it is about. */
  call_id: z.string(),
  tool: z.string(),
};

/** The fault: an instruction planted in a tool result before the model reads it. */
export const InjectionPlantedEventSchema = z.object({
  ...turn,
  event: z.literal('injection_planted'),
  ...call,
  fault_id: z.string(),
  /** The instruction as planted. */
  text: z.string(),
  /** The call it asks the model to make. */
  asks: z.object({ tool: z.string(), args_text: z.string() }),
  why: z.string(),
});

/** Marking: this tool result goes to the model between delimiters, and the system prompt says what is inside is data. */
export const ToolOutputMarkedEventSchema = z.object({
  ...turn,
  event: z.literal('tool_output_marked'),
  ...call,
  /** marked: the model reads the result between the delimiters. */
  next: z.literal('marked'),
  why: z.string(),
});

/** The detector found instruction-like text in a tool result: the span, the pattern, and what it did. */
export const InjectionFlaggedEventSchema = z.object({
  ...turn,
  event: z.literal('injection_flagged'),
  ...call,
  span: SpanSchema,
  /** The pattern that matched, in words. */
  pattern: z.string(),
  /** removed: the span is replaced before the model reads the result. */
  next: z.literal('removed'),
  why: z.string(),
});

/** The allow-list refused a call to a tool the task does not need: the tool never runs, the model gets an error. */
export const ToolCallRefusedEventSchema = z.object({
  ...turn,
  event: z.literal('tool_call_refused'),
  ...call,
  allowed: z.array(z.string()),
  next: z.literal('error_result'),
  why: z.string(),
});

/** The model made the call a planted instruction asked for: whether it ran (the allow-list may refuse it). */
export const InjectionFollowedEventSchema = z.object({
  ...turn,
  event: z.literal('injection_followed'),
  ...call,
  /** The injection_planted event whose instruction it follows. */
  planted_seq: z.number().int().min(0),
  /** runs: the tool runs as the instruction asked; refused: the allow-list refused it. */
  next: z.enum(['runs', 'refused']),
  why: z.string(),
});

/** The events this mechanism writes. */
export const EVENTS = [
  InjectionPlantedEventSchema,
  ToolOutputMarkedEventSchema,
  InjectionFlaggedEventSchema,
  ToolCallRefusedEventSchema,
  InjectionFollowedEventSchema,
] as const;
