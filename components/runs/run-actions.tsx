'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { RunConfig } from '@/lib/protocol';
import { isPlaceholderConfig } from '@/lib/protocol/imported-config';
import { ApiError } from '@/lib/client/api/client';
import { formFromConfig } from '@/lib/client/forms/form-from-config';
import { formToSearch } from '@/lib/client/forms/form-url';
import { useCreateRun } from '@/lib/client/api/runs';
import { Button } from '@/components/ui/button';

/** The playground URL holding a run's config (what the form cannot hold is listed). */
export function playgroundHref(config: RunConfig): { href: string; dropped: string[] } {
  const { form, dropped } = formFromConfig(config);
  const search = formToSearch(form);
  return { href: search ? `/?${search}` : '/', dropped };
}

/**
 * "Open in playground" loads a run's config into the form; "Re-run" starts the exact same
 * config (same seed) again and opens the new run. A run whose key came with its request
 * cannot be re-run from here: the key was never stored.
 */
export function RunActions({ config, compact = false }: { config: RunConfig; compact?: boolean }) {
  if (isPlaceholderConfig(config)) return <NoConfigNote compact={compact} />;
  return <OfferedActions config={config} compact={compact} />;
}

/** An imported trace that carried no Loop Lab config: nothing to run again, and the page says why. */
function NoConfigNote({ compact }: { compact: boolean }) {
  const why =
    'imported from a trace that carries no Loop Lab config (a plain tracer or another agent’s OTLP): there is no config to run again or to open in the playground';
  return (
    <span data-testid="no-config-note" className="text-faint" title={why}>
      {compact ? 'no config' : `No Re-run: ${why}`}
    </span>
  );
}

function OfferedActions({ config, compact }: { config: RunConfig; compact: boolean }) {
  const router = useRouter();
  const create = useCreateRun();
  const [error, setError] = useState<string>();
  const { href, dropped } = playgroundHref(config);
  const needsKey = config.provider.keySource === 'request';
  const rerun = () => {
    setError(undefined);
    create.mutate(
      { config },
      {
        onSuccess: ({ id }) => router.push(`/runs/${id}`),
        onError: (e) => setError(e instanceof ApiError ? [e.message, ...e.details].join(' · ') : String(e)),
      },
    );
  };
  return (
    <span className="flex items-center gap-2">
      <Link
        data-testid="open-in-playground"
        href={href}
        className="text-takeover underline"
        title={
          dropped.length > 0
            ? `the form cannot hold: ${dropped.join(', ')}`
            : 'this config in the playground form'
        }
      >
        {compact ? 'open' : 'Open in playground'}
        {dropped.length > 0 && (
          <span className="text-wait">
            {' '}
            (without {dropped.length === 1 ? dropped[0] : `${dropped.length} things`})
          </span>
        )}
      </Link>
      <Button
        data-testid="rerun-button"
        onClick={rerun}
        disabled={create.isPending || needsKey}
        title={
          needsKey
            ? 'its API key came with its request and was never stored: open it in the playground and enter the key'
            : 'the same config and seed, again'
        }
      >
        {create.isPending ? 'Starting…' : 'Re-run'}
      </Button>
      {error && <span className="font-mono text-fail">{error}</span>}
    </span>
  );
}
