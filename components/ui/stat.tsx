import type { ReactNode } from 'react';

/** A labelled figure in the run header: label above, tabular monospace value below. */
export function Stat({
  label,
  children,
  title,
  testId,
}: {
  label: string;
  children: ReactNode;
  title?: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-col" title={title}>
      <span className="text-2xs uppercase tracking-wide text-faint">{label}</span>
      <span className="tabular font-mono text-xs" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}
