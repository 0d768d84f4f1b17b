import type { Metadata } from 'next';
import { GlossaryList } from '@/components/explain/glossary-list';

export const metadata: Metadata = { title: 'Glossary · Loop Lab' };

export default function GlossaryPage() {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
      <div>
        <h1 className="text-sm font-semibold">Glossary</h1>
        <p className="text-2xs text-muted">
          Every term the run view uses, in a sentence or two. Each mechanism links to its lesson, where the
          same seed plays with the mechanism on and off.
        </p>
      </div>
      <GlossaryList />
    </div>
  );
}
