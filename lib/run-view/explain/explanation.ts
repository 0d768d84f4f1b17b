import type { GlossaryId } from '@/lib/mechanisms/glossary';

/**
 * The one-line "why" of each mechanism step, written from the event's own fields, so what a
 * card says is true of that event and not a generic caption. `term` is the glossary entry
 * (and through it the lesson) that explains the mechanism; `also` names related terms.
 */
export interface Explanation {
  why: string;
  term: GlossaryId;
  also?: readonly GlossaryId[];
}

export { cap } from '@/lib/mechanisms/module';
