'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { COPIED_SHOWN_MS, copyText, type CopyOutcome } from './copy-text';

export interface Copy {
  /** Copies the text (or what the function returns, computed on the click). */
  copy: (text: string | (() => string)) => void;
  /** What to show beside the button: the last copy's outcome, until "Copied" has been shown COPIED_SHOWN_MS. */
  outcome: CopyOutcome | undefined;
  /** Changes with every copy, so the live region's text is new each time and read out again. */
  count: number;
}

/** The one copy behaviour every copy button shares (components/ui/copy-button.tsx draws it). */
export function useCopy(note?: string): Copy {
  const [outcome, setOutcome] = useState<CopyOutcome>();
  const [count, setCount] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    (text: string | (() => string)) => {
      clearTimeout(timer.current);
      const clipboard =
        typeof navigator !== 'undefined' && 'clipboard' in navigator ? navigator.clipboard : undefined;
      void copyText(typeof text === 'function' ? text() : text, clipboard, note).then((result) => {
        setOutcome(result);
        setCount((n) => n + 1);
        if (result.ok) timer.current = setTimeout(() => setOutcome(undefined), COPIED_SHOWN_MS);
      });
    },
    [note],
  );
  return { copy, outcome, count };
}
