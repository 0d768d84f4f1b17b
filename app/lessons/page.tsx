import type { Metadata } from 'next';
import { LessonIndex } from '@/components/lessons/lesson-index';

export const metadata: Metadata = { title: 'Lessons · Loop Lab' };

export default function LessonsPage() {
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-3 p-4">
      <div>
        <h1 className="text-sm font-semibold">Lessons</h1>
        <p className="text-2xs text-muted">
          One failure each, played twice from the same seed: once with the mechanism that handles it, once
          with that mechanism switched off. Pick one and press Play.
        </p>
      </div>
      <LessonIndex />
    </div>
  );
}
