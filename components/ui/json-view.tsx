'use client';

import { useState } from 'react';

/** Raw JSON behind one click: never the first thing shown. */
export function JsonView({
  value,
  label = 'raw JSON',
  open: initiallyOpen = false,
}: {
  value: unknown;
  label?: string;
  open?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <div className="text-2xs">
      <button
        type="button"
        className="text-muted underline decoration-dotted hover:text-fg"
        onClick={() => setOpen(!open)}
      >
        {open ? `hide ${label}` : `show ${label}`}
      </button>
      {open && (
        <pre className="mt-1 max-h-96 overflow-auto rounded border border-line bg-sunken p-2 font-mono text-2xs leading-4 whitespace-pre-wrap break-all">
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}
