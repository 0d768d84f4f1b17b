'use client';

import type { ReactNode } from 'react';
import { useCopy } from '@/lib/client/hooks/use-copy';
import { Button } from './button';

/**
 * A button that copies text, and says so: "Copied" (with the button's note) for a moment, or
 * why not, in a polite live region beside it, so a screen reader reads the outcome too. Every
 * copy button in the app is this one.
 */
export function CopyButton({
  text,
  children,
  note,
  look = 'button',
  title,
  testId,
}: {
  /** What is copied; a function is called on the click. */
  text: string | (() => string);
  children: ReactNode;
  /** Said after "Copied —" (e.g. what the reader must do before using it). */
  note?: string;
  look?: 'button' | 'link';
  title?: string;
  testId?: string;
}) {
  const { copy, outcome, count } = useCopy(note);
  const onClick = () => copy(text);
  return (
    <span className="inline-flex items-center gap-2">
      {look === 'button' ? (
        <Button data-testid={testId} onClick={onClick} title={title}>
          {children}
        </Button>
      ) : (
        <button
          type="button"
          className="text-takeover underline decoration-dotted"
          data-testid={testId}
          onClick={onClick}
          title={title}
        >
          {children}
        </button>
      )}
      {/* Always in the page: a live region added together with its text is often not read out. */}
      <span
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-testid={testId ? `${testId}-status` : undefined}
      >
        {outcome && (
          <span key={count} className={outcome.ok ? 'text-ok' : 'text-fail'}>
            {outcome.said}
          </span>
        )}
      </span>
    </span>
  );
}
