import type { Metadata } from 'next';
import { TeacherBoard } from '@/components/board/teacher-board';
import { LESSONS } from '@/lib/lessons';

export const metadata: Metadata = { title: "The teacher's board · Loop Lab" };

/** Room mode's board (docs/room-mode.md): the teacher's session only; the API refuses anyone else. */
export default function BoardPage() {
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="px-4 pt-4 text-sm font-semibold">The teacher’s board</h1>
      <TeacherBoard lessons={LESSONS.map((lesson) => ({ slug: lesson.slug, title: lesson.title }))} />
    </div>
  );
}
