import type { RunEvent } from '@/lib/protocol';
import { ABOUT as interruptedRepair } from '@/lib/mechanisms/interrupted-repair/about';
import type { EventWords, MechanismAbout } from '@/lib/mechanisms/module';
import { ABOUT as parallelToolCalls } from '@/lib/mechanisms/parallel-tool-calls/about';
import { ABOUT as structuredAnswer } from '@/lib/mechanisms/structured-answer/about';

/**
 * What each mechanism module says about itself (browser-safe), as the mechanisms table, the
 * glossary, the explainer, compare's steps, the CLI and the control panel read it. A module is
 * one folder under lib/mechanisms/; this list and its siblings here are where it is registered.
 */
export const MODULE_ABOUT = [interruptedRepair, parallelToolCalls, structuredAnswer] as const;

/** The module events' types: each registry handles these through the module's words. */
type EventsOf<A> = A extends { events: infer Words } ? keyof Words : never;
export type ModuleEventType = EventsOf<(typeof MODULE_ABOUT)[number]> & RunEvent['event'];
export type ModuleEvent = Extract<RunEvent, { event: ModuleEventType }>;

const WORDS = new Map<string, EventWords<never>>(
  MODULE_ABOUT.flatMap((about: MechanismAbout<never>) =>
    Object.entries(about.events as Record<string, EventWords<never>>),
  ),
);

/** The module events' types, in the order listed. */
export const MODULE_EVENT_TYPES = [...WORDS.keys()] as ModuleEventType[];

/** Whether an event is a module's (its words are the module's own). */
export function isModuleEvent(e: RunEvent): e is ModuleEvent {
  return WORDS.has(e.event);
}

/** The module's words for one of its events. */
export function moduleWords<E extends ModuleEvent>(e: E): EventWords<E['event']> {
  return WORDS.get(e.event) as unknown as EventWords<E['event']>;
}
