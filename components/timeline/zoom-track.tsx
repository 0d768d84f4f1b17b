import type { ReactNode } from 'react';
import type { TimeWindow } from '@/lib/client/run-view/time-window';

/**
 * A track that shows only the visible window of run time. Its content is laid out on the
 * whole run (percent of `domain`, as every bar is); the inner layer is widened and shifted so
 * that [from, to] fills the track, and the rest is clipped.
 */
export function ZoomTrack({
  window,
  domain,
  className = '',
  children,
}: {
  window: TimeWindow;
  domain: number;
  className?: string;
  children: ReactNode;
}) {
  const span = Math.max(window.to - window.from, 1);
  return (
    <div className={`relative flex-1 overflow-hidden ${className}`}>
      <div
        className="absolute inset-y-0"
        style={{ left: `${(-window.from / span) * 100}%`, width: `${(domain / span) * 100}%` }}
      >
        {children}
      </div>
    </div>
  );
}
