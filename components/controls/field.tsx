'use client';

import type { ReactNode } from 'react';
import { useGroupOpen } from './open-groups';

/**
 * A labelled control row in the left panel. A numeric field says its allowed range (`range`) and,
 * while the value typed is not allowed, what is wrong with it (`error`, shown under `testId-error`).
 */
export function Field({
  label,
  hint,
  range,
  error,
  testId,
  children,
}: {
  label: string;
  hint?: ReactNode;
  range?: string;
  error?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <label className="flex flex-col gap-0.5">
      <span className="text-2xs font-medium text-muted">{label}</span>
      {children}
      {hint && <span className="text-2xs text-faint">{hint}</span>}
      {range && (
        <span
          className="text-[10px] leading-3 text-faint"
          data-testid={testId ? `${testId}-range` : undefined}
        >
          {range}
        </span>
      )}
      {error && (
        <span className="text-2xs text-fail" data-testid={testId ? `${testId}-error` : undefined}>
          {label} {error}
        </span>
      )}
    </label>
  );
}

export const INPUT =
  'w-full rounded border border-line bg-panel px-1.5 py-1 font-mono text-xs text-fg focus:border-takeover focus:outline-none';

export function Section({
  title,
  children,
  right,
}: {
  title: string;
  children: ReactNode;
  right?: ReactNode;
}) {
  return (
    <section className="flex flex-col gap-2 border-b border-line px-3 py-2.5">
      <div className="flex items-center justify-between">
        <h2 className="text-2xs font-semibold tracking-wide text-faint uppercase">{title}</h2>
        {right}
      </div>
      {children}
    </section>
  );
}

/**
 * A rarely used part of the panel, folded to one line that says what it holds now (so nothing
 * set is hidden unsaid); its open state survives a Run (OpenGroupsProvider).
 */
export function Fold({
  id,
  title,
  summary,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useGroupOpen(`panel:${id}`);
  return (
    <details
      data-testid={`fold-${id}`}
      open={open}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setOpen(now);
      }}
    >
      <summary className="cursor-pointer list-none text-2xs text-muted">
        <span aria-hidden className="mr-1">
          {open ? '▾' : '▸'}
        </span>
        <span className="font-medium">{title}</span>: <span className="text-faint">{summary}</span>
      </summary>
      <div className="mt-1.5 flex flex-col gap-2">{children}</div>
    </details>
  );
}
