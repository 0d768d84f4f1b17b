'use client';

import { useState } from 'react';

/**
 * Text that collapses past `max` characters, with a toggle to see all of it: code-like in a
 * `pre`, or a model's prose (`prose`).
 */
export function LongText({
  text,
  max = 600,
  className = '',
  prose = false,
}: {
  text: string;
  max?: number;
  className?: string;
  prose?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const long = text.length > max;
  const shown = long && !open ? `${text.slice(0, max)}…` : text;
  return (
    <div className={className}>
      {prose ? (
        <p className="text-xs leading-5 whitespace-pre-wrap">{shown}</p>
      ) : (
        <pre className="font-mono text-2xs leading-4 whitespace-pre-wrap break-words">{shown}</pre>
      )}
      {long && (
        <button
          type="button"
          className="mt-0.5 text-2xs text-muted underline decoration-dotted hover:text-fg"
          onClick={() => setOpen(!open)}
        >
          {open ? 'collapse' : `show all ${text.length.toLocaleString('en-US')} chars`}
        </button>
      )}
    </div>
  );
}
