import * as interruptedRepair from '@/lib/mechanisms/interrupted-repair/defaults';
import * as parallelToolCalls from '@/lib/mechanisms/parallel-tool-calls/defaults';
import * as structuredAnswer from '@/lib/mechanisms/structured-answer/defaults';

/**
 * The mechanism modules' ids and config defaults, zod-free, as lib/protocol's presets and
 * mechanism ids read them. A module is one folder under lib/mechanisms/; this file and its
 * siblings here are where it is registered, one per layer (docs/ARCHITECTURE.md, "Add a mechanism").
 */

/** Module ids, in the order listed. */
export const MODULE_MECHANISM_IDS = [
  interruptedRepair.ID,
  parallelToolCalls.ID,
  structuredAnswer.ID,
] as const;

/** Where each module goes in teaching order: after the mechanism it names. */
export const MODULE_PLACES = [
  { items: [interruptedRepair.ID], after: interruptedRepair.AFTER },
  { items: [parallelToolCalls.ID], after: parallelToolCalls.AFTER },
  { items: [structuredAnswer.ID], after: structuredAnswer.AFTER },
] as const;

/** The modules' tools-group values in each preset (off: s11's loop and every preset built on it). */
export const MODULE_TOOLS_PRESETS = {
  off: {
    ...interruptedRepair.TOOLS_PRESETS.off,
    ...parallelToolCalls.TOOLS_PRESETS.off,
    ...structuredAnswer.TOOLS_PRESETS.off,
  },
  codesmith: {
    ...interruptedRepair.TOOLS_PRESETS.codesmith,
    ...parallelToolCalls.TOOLS_PRESETS.codesmith,
    ...structuredAnswer.TOOLS_PRESETS.codesmith,
  },
  course: {
    ...interruptedRepair.TOOLS_PRESETS.course,
    ...parallelToolCalls.TOOLS_PRESETS.course,
    ...structuredAnswer.TOOLS_PRESETS.course,
  },
};

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
