import Link from 'next/link';
import { Suspense } from 'react';
import { ImportButton } from '@/components/runs/import-button';
import { RunsTable } from '@/components/runs/runs-table';

export default function RunsPage() {
  return (
    <div className="mx-auto flex h-[calc(100vh-var(--header-h))] max-w-[100rem] flex-col gap-3 p-4">
      <div className="flex items-start justify-between">
        <div>
          <h1 className="text-sm font-semibold">Runs</h1>
          <p className="text-2xs text-muted">Live, finished and imported runs. Open one to replay it.</p>
        </div>
        <div className="flex items-start gap-3">
          <Link href="/cassettes" className="py-1 text-xs text-takeover underline">
            Cassettes
          </Link>
          <ImportButton />
        </div>
      </div>
      {/* The list's filters and sort are read from the address (useSearchParams). */}
      <Suspense>
        <RunsTable />
      </Suspense>
    </div>
  );
}
