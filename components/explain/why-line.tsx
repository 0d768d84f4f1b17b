'use client';

import { explainEvent, isExplained } from '@/lib/client/explain-event';
import { useLogEvent } from '@/lib/client/use-log-event';
import { glossaryEntry } from '@/lib/lessons/glossary';

/**
 * The one-line "why" of a mechanism step, read from its event in the log; hovering shows
 * the term's definition. Plain text (it sits inside buttons); the link to the lesson is in
 * the inspector entry for the same event.
 */
export function WhyLine({ seq, className = '' }: { seq: number | undefined; className?: string }) {
  const event = useLogEvent(seq);
  if (!event || !isExplained(event)) return null;
  const x = explainEvent(event);
  if (!x) return null;
  const entry = glossaryEntry(x.term);
  return (
    <span data-testid="why-line" data-term={x.term} title={`${entry.term}: ${entry.definition}`} className={`block text-2xs leading-4 text-fg/75 ${className}`}>
      <span aria-hidden className="mr-1 text-faint">why</span>
      {x.why}
    </span>
  );
}
