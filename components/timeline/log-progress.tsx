'use client';

import { useRunStore } from '@/lib/client/run-view/run-store-provider';

/**
 * A finished run drawn before its whole log arrived: how much of the log is in (the inspector's
 * raw events wait for it), or that the rest could not be read. Nothing once the log is whole.
 */
export function LogProgress({ className = '' }: { className?: string }) {
  const loading = useRunStore((s) => s.logLoading);
  if (!loading) return null;
  const { received, total, error } = loading;
  if (error) {
    return (
      <span data-testid="log-progress" data-state="failed" className={`text-fail ${className}`} title={error}>
        The run&apos;s log did not load: its events are not in the inspector
      </span>
    );
  }
  return (
    // A box of its own size and layout: a count that changes many times a second never lays out the page around it.
    <span
      data-testid="log-progress"
      data-state="loading"
      className={`inline-flex h-4 w-64 shrink-0 items-center gap-1 overflow-hidden text-muted [contain:strict] ${className}`}
    >
      <progress max={total} value={received} aria-label="Run log loaded" className="h-1.5 w-16" />
      log {received.toLocaleString('en')} of {total.toLocaleString('en')} events
    </span>
  );
}
