'use client';

import { useRunStore } from '@/lib/client/run-view/run-store-provider';

/**
 * A finished run drawn before its whole log arrived: how much of the log is in (the inspector's
 * raw events wait for it), that all of it is, or that the rest could not be read. Its box keeps
 * one size and lays itself out alone from the first paint on: a count that changes many times a
 * second, and its end, never lay out the long run's page around it. Nothing for a streamed run.
 */
export function LogProgress({ className = '' }: { className?: string }) {
  const load = useRunStore((s) => s.logLoad);
  if (!load) return null;
  const { received, total, whole, error } = load;
  const state = whole ? 'whole' : error ? 'failed' : 'loading';
  return (
    <span
      data-testid="log-progress"
      data-state={state}
      title={error}
      className={`inline-flex h-4 w-64 shrink-0 items-center gap-1 overflow-hidden [contain:strict] ${error ? 'text-fail' : 'text-muted'} ${className}`}
    >
      {state === 'loading' && (
        <progress max={total} value={received} aria-label="Run log loaded" className="h-1.5 w-16" />
      )}
      {state === 'loading' && `log ${received.toLocaleString('en')} of ${total.toLocaleString('en')} events`}
      {state === 'whole' && `log: all ${total.toLocaleString('en')} events`}
      {state === 'failed' && 'the log did not load: no raw events'}
    </span>
  );
}
