import { z } from 'zod';
import { turn } from './fields';

/** The mechanism port's points (lib/engine/mechanism-port.ts), as a decision event names them. */
export const HookPointSchema = z.enum([
  'beforeRequest',
  'onStreamPart',
  'onError',
  'onContextGrow',
  'afterResponse',
  'beforeToolCalls',
  'beforeToolCall',
  'onToolResult',
  'afterToolCalls',
  'runTool',
  'beforeEnd',
]);

/**
 * A decision a mechanism made at one of the port's points, written through the port
 * (`ctx.decide`) by a mechanism that has no event of its own — a strategy loaded from a file.
 * The built-in mechanisms write their own events (dangling_calls, output_recovery, …).
 */
export const MechanismDecisionEventSchema = z.object({
  ...turn,
  event: z.literal('mechanism_decision'),
  /** Who decided: a built-in mechanism's id or `strategy:<name>`. */
  mechanism: z.string().min(1).max(100),
  hook: HookPointSchema,
  /** The decision, in a word or two (give_up, stop, note). */
  decision: z.string().min(1).max(100),
  /** What happens next, in a word or two (surface, end_run, go_on). */
  next: z.string().min(1).max(100),
  /** The decision in words, written where it was made. */
  why: z.string().min(1).max(2000),
});
