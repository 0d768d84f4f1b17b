import type {
  EventOf,
  McpConfig,
  MechanismId,
  PresetId,
  RecoveryConfig,
  RecoveryOverrides,
  RunConfigInput,
  RunEvent,
  RunEventType,
  TakeoverHandling,
  VerdictConfig,
} from '@/lib/protocol';

/**
 * What a mechanism module (one folder under lib/mechanisms/) says about itself, zod-free and
 * browser-safe: its row in the mechanisms table, its glossary entries, the words for each of its
 * events and its fields in the control panel. The registries (lib/mechanisms/mechanisms.ts,
 * glossary.ts, the explainer, compare's steps, the CLI's lines, the control panel) read these
 * through lib/mechanisms/modules/about.ts instead of naming the mechanism. This file sits at
 * lib/protocol's rank (lint holds it there), since lib/protocol reads that list for the modules'
 * ids and defaults: it imports types from lib/protocol and nothing else.
 */

/**
 * How a mechanism is switched off: a recovery override, or the run config's takeover handling,
 * verdict or MCP recovery, or (`approval: false`) the run config's pause without its tool approval.
 */
export type MechanismOff =
  | { recovery: RecoveryOverrides }
  | { takeover: Partial<TakeoverHandling> }
  | { verdict: Partial<VerdictConfig> }
  | { approval: false }
  | { mcp: Partial<McpConfig['recovery']> };

/** A row of the mechanisms table (lib/mechanisms/mechanisms.ts). */
export interface Mechanism {
  id: MechanismId;
  label: string;
  /** What a run changes to have it off, whatever the preset says. */
  off: MechanismOff;
  /** Its lesson: /lessons/<lessonSlug>. */
  lessonSlug: string;
  /** What it does, in one line (tooltips, the lessons index). */
  oneLine: string;
}

/** An entry of the glossary (lib/mechanisms/glossary.ts). */
export interface GlossaryEntry {
  /** The anchor on /glossary (`/glossary#<id>`). */
  id: string;
  term: string;
  /** One or two sentences: what it is and why it exists. */
  definition: string;
  /** The switchable mechanism it belongs to: its lesson shows it on and off (lib/mechanisms/mechanisms.ts). */
  mechanism?: MechanismId;
  /** The lesson that shows this term, when it is not the mechanism's own (a second lesson of the same mechanism). */
  lesson?: string;
  /** Other entries worth reading next. */
  see?: readonly string[];
}

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

/**
 * A line a module adds to the totals two runs are compared on (lib/compare): a count over the
 * run's events, shown where either run counted any.
 */
export interface ModuleTotalsLine {
  /** Its id in the totals diff (`module:<name>`, so it never meets a built-in line's). */
  id: `module:${string}`;
  label: string;
  /** Which way is better, or null: shown, never judged. */
  better: 'low' | 'high' | null;
  /** What one event adds to it (0 for most). */
  count(e: RunEvent): number;
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
  /** Its lines in the totals two runs are compared on. */
  totals?: readonly ModuleTotalsLine[];
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

/** `list` with each placed item after the one whose key is its anchor (in the order given); an unknown anchor appends. */
export function placeAfter<T, P extends T>(
  list: readonly T[],
  placed: readonly { items: readonly P[]; after: string }[],
  keyOf: (item: T) => string,
): T[] {
  const out = [...list];
  for (const { items, after } of placed) {
    const at = out.findIndex((item) => keyOf(item) === after);
    out.splice(at < 0 ? out.length : at + 1, 0, ...items);
  }
  return out;
}

/**
 * One cell of a module's rows in the fault matrix (lib/matrix/module-cells.ts runs it through the
 * real runtime on the virtual clock): the run's config, its promise in words and the check that
 * holds the run to it. The matrix adds its own checks to every cell: no hang, a log that ends in
 * terminate, no why line its own later events contradict.
 */
export interface ModuleMatrixCell {
  /** Its place in the table, e.g. "sim-openai × codesmith × marking on". */
  label: string;
  config: RunConfigInput;
  /** What the run must show, in words. */
  promise: string;
  /** Where the run broke its promise, one line each (empty: kept). */
  check(events: readonly RunEvent[]): string[];
}

/** A cell that does not apply, and why (a vendor that guarantees against the fault). */
export interface ModuleMatrixGap {
  label: string;
  notApplicable: string;
}

/** A module's row set in the fault matrix: its cells over the matrix's vendors and presets. */
export interface ModuleMatrixRows {
  /** The row set's title in the matrix's output. */
  title: string;
  cells(columns: {
    vendors: readonly string[];
    presets: readonly PresetId[];
  }): readonly (ModuleMatrixCell | ModuleMatrixGap)[];
}
