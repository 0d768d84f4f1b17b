import type { EventOf, MechanismId, RecoveryConfig, RunEventType } from '@/lib/protocol';
import type { GlossaryEntry } from './glossary';
import type { Mechanism } from './mechanisms';

export { placeAfter } from './modules/defaults';

/**
 * What a mechanism module (one folder under lib/mechanisms/) says about itself, browser-safe:
 * its row in the mechanisms table, its glossary entries, the words for each of its events and
 * its fields in the control panel. The registries (lib/mechanisms/mechanisms.ts, glossary.ts, the
 * explainer, compare's steps, the CLI's lines, the control panel) read these through
 * lib/mechanisms/modules/about.ts instead of naming the mechanism.
 */

/** The words for one event of the module, each written from the event's own fields. */
export interface EventWords<T extends RunEventType> {
  /** Why the step happened, in one sentence (the why line, the inspector); `term` is a glossary id. */
  explain(e: EventOf<T>): { why: string; term: string; also?: readonly string[] };
  /** The CLI's line for it, after the time and the turn. */
  line(e: EventOf<T>): string;
  /** The step as compare's run diff sees it: equal keys mean the same step. */
  step(e: EventOf<T>): { kind: 'tool' | 'recovery'; key: unknown; label: string };
  /** The tool calls the event is about (the inspector shows it beside each). */
  callIds?(e: EventOf<T>): readonly string[];
}

/** A field of the control panel (lib/client/forms/recovery-fields.ts draws it in its section). */
export interface ModuleField {
  section: Exclude<keyof RecoveryConfig, 'sdkMaxRetries'>;
  key: string;
  label: string;
  kind: 'bool' | 'int';
  meaning: string;
}

export interface MechanismAbout<T extends RunEventType = RunEventType, G extends string = string> {
  /** Its row in the mechanisms table, and the id it follows in teaching order. */
  mechanism: Mechanism;
  after: MechanismId;
  /** Its glossary entries, and the entry they follow on /glossary. */
  glossary: readonly (GlossaryEntry & { id: G })[];
  glossaryAfter: string;
  events: { [K in T]: EventWords<K> };
  fields: readonly ModuleField[];
}

/** Helps a module's about.ts keep its event types. */
export function defineAbout<T extends RunEventType, G extends string>(
  about: MechanismAbout<T, G>,
): MechanismAbout<T, G> {
  return about;
}

/** The sentence's first letter in capitals (an event's own words start lower-case). */
export function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
