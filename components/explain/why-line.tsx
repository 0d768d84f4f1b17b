'use client';

import { explainEvent, isExplained } from '@/lib/run-view/explain/explain-event';
import { useLogEvent } from '@/lib/client/hooks/use-log-event';
import Link from 'next/link';
import { glossaryEntry, lessonHref } from '@/lib/mechanisms/glossary';

/**
 * The one-line "why" of a mechanism step, read from its event in the log; hovering shows
 * the term's definition. Inside a button (a ladder step) it is plain text and the lesson link
 * is in the inspector entry for the same event; elsewhere `linked` adds the lesson link.
 */
export function WhyLine({
  seq,
  className = '',
  linked = false,
}: {
  seq: number | undefined;
  className?: string;
  /** Not inside a button: link the lesson. */ linked?: boolean;
}) {
  const event = useLogEvent(seq);
  if (!event || !isExplained(event)) return null;
  const x = explainEvent(event);
  if (!x) return null;
  const entry = glossaryEntry(x.term);
  return (
    <span
      data-testid="why-line"
      data-term={x.term}
      title={`${entry.term}: ${entry.definition}`}
      className={`block text-2xs leading-4 text-fg/75 ${className}`}
    >
      <span aria-hidden className="mr-1 text-faint">
        why
      </span>
      {x.why}
      {linked && lessonHref(entry) && (
        <Link href={lessonHref(entry)!} data-testid="why-lesson-link" className="ml-1 text-run underline">
          lesson →
        </Link>
      )}
    </span>
  );
}
