import { z } from 'zod';
import { BREAKABLE_EVENTS } from './pause-words';

export { BREAKABLE_EVENTS, describeBreakpoint, type BreakableEvent } from './pause-words';

/**
 * Hands on a run: breakpoints that pause it, and tool calls that wait for a person's approval.
 * A paused run holds its clock (lib/clock: `freeze`), so no deadline — a watchdog, a backoff, the
 * run-time budget — passes while it waits; the `paused` event says where it stopped and why, and
 * `resumed` / `tool_approval` say who let it go on, and how.
 */

export const BreakableEventSchema = z.enum(BREAKABLE_EVENTS, {
  error: (issue) =>
    `no breakable event "${String(issue.input)}"; a breakpoint can stop on ${BREAKABLE_EVENTS.join(', ')}`,
});

/**
 * Where a run pauses. `request`: before the Nth model request goes to the vendor (every request
 * counts, retries and background calls too). `tool`: before a tool call runs (any tool, or the one
 * named). `event`: just after an event of that kind is written; the run stops at the next point it
 * can wait (a wait on the clock, a request, a tool call). `cost`: once the run's cost is over `usd`.
 */
export const BreakpointSchema = z.discriminatedUnion('on', [
  z.object({ on: z.literal('request'), request: z.number().int().min(1).max(10_000) }).strict(),
  z.object({ on: z.literal('tool'), tool: z.string().min(1).max(64).optional() }).strict(),
  z.object({ on: z.literal('event'), event: BreakableEventSchema }).strict(),
  z.object({ on: z.literal('cost'), usd: z.number().min(0).max(1000) }).strict(),
]);
export type Breakpoint = z.infer<typeof BreakpointSchema>;

/** Which tool calls wait for approval: every call, the ones named, or those that change the workspace. */
export const ApprovalToolsSchema = z.union([
  z.enum(['all', 'writes']),
  z.array(z.string().min(1).max(64)).min(1),
]);

/**
 * Tool approval. `timeoutMs` absent: the run waits paused (its clock frozen) until someone decides.
 * With `timeoutMs`, the clock runs while it waits and, that much run time later, the call is denied
 * (on the virtual clock, where nothing else is running, that is at once).
 */
export const ApprovalConfigSchema = z
  .object({
    tools: ApprovalToolsSchema,
    timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  })
  .strict();
export type ApprovalConfig = z.infer<typeof ApprovalConfigSchema>;

export const PauseConfigSchema = z
  .object({
    breakpoints: z.array(BreakpointSchema).max(50).default([]),
    approval: ApprovalConfigSchema.optional(),
  })
  .strict();
export type PauseConfig = z.infer<typeof PauseConfigSchema>;

/** Who acted on a paused run: the HTTP API, the playground, the command line, or the run's own approval timeout. */
export const DeciderSchema = z.enum(['api', 'playground', 'cli', 'timeout']);
export type Decider = z.infer<typeof DeciderSchema>;

/**
 * What a person sends a paused (or running) run: pause at the next point it can wait, step (on to
 * the next event, then paused again), continue, cancel (the run ends), replace the breakpoints, or
 * decide a tool call waiting for approval (`callId` absent: the one call waiting). `by` says who.
 */
export const PauseControlSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('pause'), by: DeciderSchema.default('api') }).strict(),
  z.object({ action: z.literal('step'), by: DeciderSchema.default('api') }).strict(),
  z.object({ action: z.literal('continue'), by: DeciderSchema.default('api') }).strict(),
  z.object({ action: z.literal('cancel'), by: DeciderSchema.default('api') }).strict(),
  z
    .object({
      action: z.literal('set_breakpoints'),
      breakpoints: z.array(BreakpointSchema).max(50),
      by: DeciderSchema.default('api'),
    })
    .strict(),
  z
    .object({
      action: z.literal('approve'),
      callId: z.string().min(1).max(200).optional(),
      reason: z.string().max(2_000).optional(),
      by: DeciderSchema.default('api'),
    })
    .strict(),
  z
    .object({
      action: z.literal('deny'),
      callId: z.string().min(1).max(200).optional(),
      /** The tool result the model receives instead of the call's. */
      message: z
        .string()
        .trim()
        .min(1, 'a denial needs a message: the model receives it as the tool result')
        .max(4_000),
      reason: z.string().max(2_000).optional(),
      by: DeciderSchema.default('api'),
    })
    .strict(),
  z
    .object({
      action: z.literal('edit'),
      callId: z.string().min(1).max(200).optional(),
      /** The arguments the call runs with instead of the model's. */
      args: z.record(z.string(), z.unknown()),
      reason: z.string().max(2_000).optional(),
      by: DeciderSchema.default('api'),
    })
    .strict(),
]);
export type PauseControl = z.infer<typeof PauseControlSchema>;
export const PAUSE_ACTIONS = [
  'pause',
  'step',
  'continue',
  'cancel',
  'set_breakpoints',
  'approve',
  'deny',
  'edit',
] as const;
export type PauseAction = (typeof PAUSE_ACTIONS)[number];
export function isPauseControl(message: { action: string }): message is PauseControl {
  return (PAUSE_ACTIONS as readonly string[]).includes(message.action);
}
export type PauseConfigInput = z.input<typeof PauseConfigSchema>;
