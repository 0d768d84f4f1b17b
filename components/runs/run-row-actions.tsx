'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { api, ApiError } from '@/lib/client/api/client';
import { useCreateRun } from '@/lib/client/api/runs';
import { playgroundHref } from './run-actions';

/**
 * "open" (the run's config in the playground) and "re-run" (the same config and seed, started
 * now) from a row of the runs list; the config is fetched when asked for, not with the list.
 */
export function RunRowActions({ id }: { id: string }) {
  const router = useRouter();
  const create = useCreateRun();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const withConfig = async (
    then: (config: NonNullable<Awaited<ReturnType<typeof api.getRun>>['config']>) => void,
  ) => {
    setBusy(true);
    setError(undefined);
    try {
      const detail = await api.getRun(id);
      if (!detail.config) throw new ApiError('this run has no stored config', 0);
      then(detail.config);
    } catch (e) {
      setError(e instanceof ApiError ? [e.message, ...e.details].join(' · ') : String(e));
    } finally {
      setBusy(false);
    }
  };
  const open = () => void withConfig((config) => router.push(playgroundHref(config).href));
  const rerun = () =>
    void withConfig((config) => {
      if (config.provider.keySource === 'request')
        throw new ApiError('its API key was never stored: open it in the playground and enter the key', 0);
      create.mutate(
        { config },
        { onSuccess: ({ id: next }) => router.push(`/runs/${next}`), onError: (e) => setError(e.message) },
      );
    });
  return (
    <span role="cell" className="flex justify-end gap-2 text-2xs" title={error}>
      <button
        type="button"
        data-testid="runs-open"
        disabled={busy}
        onClick={open}
        className="text-takeover underline disabled:opacity-40"
        title="this run's config in the playground"
      >
        open
      </button>
      <button
        type="button"
        data-testid="runs-rerun"
        disabled={busy || create.isPending}
        onClick={rerun}
        className="text-takeover underline disabled:opacity-40"
        title="the same config and seed, again"
      >
        re-run
      </button>
      {error && (
        <span className="text-fail" aria-live="polite">
          failed
        </span>
      )}
    </span>
  );
}
