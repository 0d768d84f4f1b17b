import Link from 'next/link';
import {
  GLOSSARY,
  glossaryEntry,
  lessonHref,
  type GlossaryEntry,
  type GlossaryId,
} from '@/lib/mechanisms/glossary';

/** Every term the UI uses, an anchor each, with the lesson where the mechanism plays on and off. */
export function GlossaryList() {
  const entries: readonly GlossaryEntry[] = [...GLOSSARY].sort((a, b) => a.term.localeCompare(b.term, 'en'));
  return (
    <dl className="flex flex-col gap-2" data-testid="glossary">
      {entries.map((e) => (
        <div
          key={e.id}
          id={e.id}
          data-testid="glossary-term"
          className="scroll-mt-14 rounded border border-line bg-panel px-3 py-2 target:border-run"
        >
          <dt className="flex flex-wrap items-baseline gap-3">
            <a href={`#${e.id}`} className="font-semibold hover:underline">
              {e.term}
            </a>
            {lessonHref(e) && (
              <Link
                href={lessonHref(e)!}
                data-testid="glossary-lesson-link"
                className="text-2xs text-run hover:underline"
              >
                lesson →
              </Link>
            )}
          </dt>
          <dd className="mt-0.5 text-xs text-fg/90">{e.definition}</dd>
          {e.see && e.see.length > 0 && (
            <dd className="mt-0.5 text-2xs text-muted">
              see also{' '}
              {e.see.map((id, n) => (
                <span key={id}>
                  {n > 0 ? ', ' : ''}
                  <a href={`#${id}`} className="hover:underline">
                    {glossaryEntry(id as GlossaryId).term}
                  </a>
                </span>
              ))}
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
