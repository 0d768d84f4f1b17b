import Link from 'next/link';
import { explainEvent, explainedSteps } from '@/lib/run-view/explain/explain-event';
import type { RunEvent } from '@/lib/protocol';
import { glossaryEntry, glossaryHref, lessonHref } from '@/lib/mechanisms/glossary';

/**
 * The inspector's explanation of the selected item: for every mechanism step among its
 * events, the why, the term's definition, and links to the glossary and the lesson.
 */
export function ExplainEntries({ events }: { events: readonly RunEvent[] }) {
  const entries = explainedSteps(events).flatMap((e) => {
    const x = explainEvent(e);
    return x ? [{ seq: e.seq, event: e.event, ...x }] : [];
  });
  if (entries.length === 0) return null;
  return (
    <section className="mb-3 flex flex-col gap-2" aria-label="what happened and why">
      {entries.map((x) => {
        const entry = glossaryEntry(x.term);
        const lesson = lessonHref(entry);
        return (
          <div
            key={x.seq}
            data-testid="explain-entry"
            data-event={x.event}
            className="rounded border border-line bg-sunken/60 px-2 py-1.5"
          >
            <p className="text-xs">{x.why}</p>
            <p className="mt-1 text-2xs text-muted">
              <span className="font-semibold text-fg/80">{entry.term}</span> — {entry.definition}
            </p>
            <p className="mt-1 flex gap-3 text-2xs">
              <Link
                href={glossaryHref(x.term)}
                data-testid="glossary-link"
                className="text-run hover:underline"
              >
                glossary
              </Link>
              {lesson && (
                <Link href={lesson} data-testid="lesson-link" className="text-run hover:underline">
                  lesson: {entry.term} →
                </Link>
              )}
              {x.also
                ?.filter((id) => id !== x.term)
                .map((id) => (
                  <Link key={id} href={glossaryHref(id)} className="text-muted hover:underline">
                    {glossaryEntry(id).term}
                  </Link>
                ))}
            </p>
          </div>
        );
      })}
    </section>
  );
}
