import Link from 'next/link';
import { LESSONS } from '@/lib/lessons';
import { MECHANISMS } from '@/lib/mechanisms/mechanisms';

/** Every lesson: its failure in one line and the mechanism it switches off. */
export function LessonIndex() {
  return (
    <ol className="flex flex-col gap-2" data-testid="lesson-index">
      {LESSONS.map((lesson, n) => (
        <li
          key={lesson.slug}
          data-testid="lesson-item"
          data-slug={lesson.slug}
          className="rounded border border-line bg-panel px-3 py-2"
        >
          <div className="flex flex-wrap items-baseline gap-x-3">
            <span className="tabular font-mono text-2xs text-faint">{String(n + 1).padStart(2, '0')}</span>
            <Link href={`/lessons/${lesson.slug}`} className="font-semibold hover:underline">
              {lesson.title}
            </Link>
            <span className="text-2xs text-muted">mechanism: {MECHANISMS[lesson.mechanism].label}</span>
          </div>
          <p className="mt-0.5 text-xs text-fg/90">{lesson.failure}</p>
        </li>
      ))}
    </ol>
  );
}
