'use client';

import { useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { cassetteUrl, useSaveRunCassette } from '@/lib/client/api/cassettes';
import type { CassetteSummary } from '@/lib/protocol/http';

/**
 * "Save as cassette": the finished run's model traffic (which the server holds for its newest runs)
 * stored as a cassette, then a link to download it and the list. What the server answered is shown
 * as it said it (a run it no longer holds says so).
 */
export function SaveCassette({ runId, finished }: { runId: string; finished: boolean }) {
  const save = useSaveRunCassette();
  const [saved, setSaved] = useState<CassetteSummary | undefined>();
  const [error, setError] = useState<string | undefined>();
  if (saved) {
    return (
      <span data-testid="cassette-saved" className="text-2xs text-muted">
        cassette saved ({saved.exchanges} exchanges{saved.truncated ? ', cut at its size bound' : ''}):{' '}
        <a href={cassetteUrl(saved.id)} download className="text-takeover underline">
          download
        </a>{' '}
        ·{' '}
        <a href="/cassettes" className="text-takeover underline">
          cassettes
        </a>
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1">
      <button
        type="button"
        data-testid="save-cassette"
        className="text-takeover underline disabled:cursor-not-allowed disabled:opacity-40"
        disabled={!finished || save.isPending}
        title={
          finished
            ? "Save this run's requests and the responses' bytes and timing, to replay it offline under any fault"
            : 'available once the run has ended'
        }
        onClick={() =>
          save.mutate(runId, {
            onSuccess: (summary) => setSaved(summary),
            onError: (e) => setError(e instanceof ApiError ? e.message : String(e)),
          })
        }
      >
        {save.isPending ? 'Saving…' : 'Save as cassette'}
      </button>
      {error && (
        <span data-testid="cassette-error" className="max-w-xs text-2xs text-fail">
          {error}
        </span>
      )}
    </span>
  );
}
