import type { ReactNode } from 'react';

/** A labelled control row in the left panel. */
export function Field({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-0.5">
      <span className="text-2xs font-medium text-muted">{label}</span>
      {children}
      {hint && <span className="text-2xs text-faint">{hint}</span>}
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
