'use client';

import { useState } from 'react';

/** Text that collapses past `max` characters, with a toggle to see all of it. */
export function LongText({ text, max = 600, className = '' }: { text: string; max?: number; className?: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > max;
  return (
    <div className={className}>
      <pre className="font-mono text-2xs leading-4 whitespace-pre-wrap break-words">{long && !open ? `${text.slice(0, max)}…` : text}</pre>
      {long && (
        <button type="button" className="mt-0.5 text-2xs text-muted underline decoration-dotted hover:text-fg" onClick={() => setOpen(!open)}>
          {open ? 'collapse' : `show all ${text.length.toLocaleString('en-US')} chars`}
        </button>
      )}
    </div>
  );
}
