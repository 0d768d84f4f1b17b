'use client';

import { RunStoreProvider, useRunStore } from '@/lib/client/run-view/run-store-provider';
import { useSharedRun } from '@/lib/client/hooks/use-shared-run';
import { RunView } from '@/components/timeline/run-view';

/**
 * A run shared by link, read only: its view and events through the link's routes, and none of
 * the run page's actions (no abort, fork, compare, save or download: the link opens this run's
 * view and nothing else).
 */
export function SharedRunPage({ token }: { token: string }) {
  return (
    <RunStoreProvider key={token}>
      <SharedRunBody token={token} />
    </RunStoreProvider>
  );
}

function SharedRunBody({ token }: { token: string }) {
  useSharedRun(token);
  const connection = useRunStore((s) => s.connection);
  const failed = useRunStore((s) => s.connection === 'error' && s.view.eventCount === 0);
  return (
    <div className="flex h-[calc(100vh-var(--header-h))] min-h-0 flex-col">
      <div className="flex items-center gap-3 border-b border-line bg-sunken px-4 py-1 text-2xs">
        <h1 className="font-semibold" data-testid="shared-run-title">
          A shared run, read only
        </h1>
        <span className="text-muted">
          Someone shared this run with you: you can read it, not change it.
          {connection === 'open' ? ' It is still going.' : ''}
        </span>
      </div>
      {failed ? (
        <p role="alert" className="p-4 text-xs text-fail">
          This link does not open a run: it may have been revoked.
        </p>
      ) : (
        <RunView />
      )}
    </div>
  );
}
