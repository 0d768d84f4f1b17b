import { MECHANISMS } from './mechanisms';
import { MODEL_CALL_TERMS } from './glossary-model-calls';
import { RUN_TERMS } from './glossary-run';
import { TOOL_CONTEXT_TERMS } from './glossary-tools-context';
import { type GlossaryEntry, placeAfter } from './module';
import { MODULE_ABOUT } from './modules/about';

/**
 * Every term the UI shows, defined once in the project's own words. The /glossary page draws
 * this list (an anchor per term), the inspector quotes an entry beside the event it explains,
 * and `mechanism` leads to the lesson page where the mechanism plays on and off.
 * Numbers quoted in the entries are read from the presets (./defaults.ts), so they are the engine’s own
 * defaults; a run's own numbers are in its events.
 */

export type { GlossaryEntry } from './module';

/**
 * The entries written here, by topic (./glossary-model-calls.ts, ./glossary-tools-context.ts,
 * ./glossary-run.ts); the modules' entries come from their folders (./modules/about.ts).
 */
const CORE = [...MODEL_CALL_TERMS, ...TOOL_CONTEXT_TERMS, ...RUN_TERMS] as const;

type ModuleGlossaryId = (typeof MODULE_ABOUT)[number]['glossary'][number]['id'];

/** Every entry, in the page's order: each module's entries after the one it names. */
export const GLOSSARY: readonly ((typeof CORE)[number] | (GlossaryEntry & { id: ModuleGlossaryId }))[] =
  placeAfter<GlossaryEntry, GlossaryEntry>(
    CORE,
    MODULE_ABOUT.map((about) => ({ items: about.glossary, after: about.glossaryAfter })),
    (e) => e.id,
  ) as (GlossaryEntry & { id: ModuleGlossaryId })[];

export type GlossaryId = (typeof GLOSSARY)[number]['id'];

const BY_ID: ReadonlyMap<string, GlossaryEntry> = new Map(GLOSSARY.map((e) => [e.id, e]));

/** The entry for a term id (typed, so a typo is a compile error). */
export function glossaryEntry(id: GlossaryId): GlossaryEntry {
  return BY_ID.get(id)!;
}

/** Where a term is defined: its anchor on the glossary page. */
export function glossaryHref(id: GlossaryId): string {
  return `/glossary#${id}`;
}

/** The lesson page where a term's mechanism plays on and off, from the one mechanisms table. */
export function lessonHref(entry: GlossaryEntry): string | undefined {
  if (!entry.mechanism) return undefined;
  return `/lessons/${entry.lesson ?? MECHANISMS[entry.mechanism].lessonSlug}`;
}
