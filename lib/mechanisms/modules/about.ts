import type { RunEvent } from '@/lib/protocol';
import * as injectionGuard from '@/lib/mechanisms/injection-guard/about';
import * as interruptedRepair from '@/lib/mechanisms/interrupted-repair/about';
import type { EventWords, MechanismAbout, ModuleTotalsLine } from '@/lib/mechanisms/module';
import * as parallelToolCalls from '@/lib/mechanisms/parallel-tool-calls/about';
import * as structuredAnswer from '@/lib/mechanisms/structured-answer/about';
import * as subagents from '@/lib/mechanisms/subagents/about';

/**
 * What each mechanism module says about itself, zod-free: its id, its place in teaching order,
 * its config defaults per preset (lib/protocol's presets and mechanism ids read them, and the
 * browser's first load with them), and its words (the mechanisms table, the glossary, the
 * explainer, compare's steps, the CLI and the control panel read them). A module is one folder
 * under lib/mechanisms/; this list and its siblings here (protocol, lesson, view, engine) are
 * where it is registered (docs/ARCHITECTURE.md, "Add a mechanism").
 */

/** Module ids, in the order listed. */
export const MODULE_MECHANISM_IDS = [
  interruptedRepair.ID,
  parallelToolCalls.ID,
  structuredAnswer.ID,
  injectionGuard.ID,
  subagents.ID,
] as const;

/** Where each module goes in teaching order: after the mechanism it names. */
export const MODULE_PLACES = [
  { items: [interruptedRepair.ID], after: interruptedRepair.AFTER },
  { items: [parallelToolCalls.ID], after: parallelToolCalls.AFTER },
  { items: [structuredAnswer.ID], after: structuredAnswer.AFTER },
  { items: [injectionGuard.ID], after: injectionGuard.AFTER },
  { items: [subagents.ID], after: subagents.AFTER },
] as const;

/** The modules' tools-group values in each preset (off: s11's loop and every preset built on it). */
export const MODULE_TOOLS_PRESETS = {
  off: {
    ...interruptedRepair.TOOLS_PRESETS.off,
    ...parallelToolCalls.TOOLS_PRESETS.off,
    ...structuredAnswer.TOOLS_PRESETS.off,
    ...injectionGuard.TOOLS_PRESETS.off,
    ...subagents.TOOLS_PRESETS.off,
  },
  codesmith: {
    ...interruptedRepair.TOOLS_PRESETS.codesmith,
    ...parallelToolCalls.TOOLS_PRESETS.codesmith,
    ...structuredAnswer.TOOLS_PRESETS.codesmith,
    ...injectionGuard.TOOLS_PRESETS.codesmith,
    ...subagents.TOOLS_PRESETS.codesmith,
  },
  course: {
    ...interruptedRepair.TOOLS_PRESETS.course,
    ...parallelToolCalls.TOOLS_PRESETS.course,
    ...structuredAnswer.TOOLS_PRESETS.course,
    ...injectionGuard.TOOLS_PRESETS.course,
    ...subagents.TOOLS_PRESETS.course,
  },
};

/** The tools-group values a module applies when a config leaves its fields out (a module whose fields are in no preset). */
export const MODULE_TOOLS_DEFAULTS = {
  ...structuredAnswer.TOOLS_DEFAULTS,
  ...injectionGuard.TOOLS_DEFAULTS,
  ...subagents.TOOLS_DEFAULTS,
};

/**
 * The terminate reasons modules add to the run log's (lib/protocol's TerminateReasonSchema), each
 * with the words the run header says it in.
 */
export const MODULE_TERMINATES = { ...structuredAnswer.TERMINATES, ...injectionGuard.TERMINATES } as const;

/** Each module's words: its table row, glossary entries, event words and control fields. */
export const MODULE_ABOUT = [
  interruptedRepair.ABOUT,
  parallelToolCalls.ABOUT,
  structuredAnswer.ABOUT,
  injectionGuard.ABOUT,
  subagents.ABOUT,
] as const;

/** The lines modules add to the totals two runs are compared on (lib/compare reads them). */
export const MODULE_TOTALS_LINES: readonly ModuleTotalsLine[] = MODULE_ABOUT.flatMap(
  (about: MechanismAbout<never>) => about.totals ?? [],
);

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
