import type { Breakpoint } from './pause';

/**
 * The zod-free half of lib/protocol/pause.ts, for the playground's first load: the event kinds a
 * breakpoint may name, and a breakpoint in words.
 */

/**
 * The event kinds a breakpoint may stop on (terminate is left out: nothing follows it). Each is an
 * event of the union: lib/protocol/events.ts checks the list against it.
 */
export const BREAKABLE_EVENTS = [
  'iteration_start',
  'model_request',
  'model_error',
  'retry_scheduled',
  'retry_declined',
  'watchdog_fired',
  'fault_injected',
  'sdk_retry',
  'fallback',
  'model_cooldown',
  'swap',
  'llm_call',
  'tool_call',
  'tool_guard',
  'arg_repair',
  'compaction',
  'context_overflow',
  'context_recovered',
  'breaker',
  'output_recovery',
  'mechanism_decision',
] as const;

export type BreakableEvent = (typeof BREAKABLE_EVENTS)[number];

/** A breakpoint in words, for the paused event and the pause bar. */
export function describeBreakpoint(breakpoint: Breakpoint): string {
  switch (breakpoint.on) {
    case 'request':
      return `before request ${breakpoint.request}`;
    case 'tool':
      return breakpoint.tool ? `before a ${breakpoint.tool} call` : 'before a tool call';
    case 'event':
      return `on ${breakpoint.event}`;
    case 'cost':
      return `cost over $${breakpoint.usd}`;
  }
}
