'use client';

import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

const FOCUSABLE = 'select, input, textarea, button, a[href], [tabindex]:not([tabindex="-1"])';

export interface Popover {
  open: boolean;
  toggle: () => void;
  /** Closes it and puts focus back on the button that opened it. */
  close: () => void;
  triggerRef: RefObject<HTMLButtonElement | null>;
  panelRef: RefObject<HTMLDivElement | null>;
  /** On the panel: Escape closes it (and is marked handled, so it never aborts the run). */
  onPanelKeyDown: (e: KeyboardEvent) => void;
}

/**
 * A small panel opened by a button (Fork…, Compare with…, Run the counterfactual…): on
 * opening, focus moves to its first control, so a keyboard user lands inside it; Escape
 * closes it and focus returns to the button, where the user left off.
 */
export function usePopover(): Popover {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [open]);

  const close = useCallback(() => {
    setOpen(false);
    triggerRef.current?.focus();
  }, []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const onPanelKeyDown = useCallback(
    (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close();
    },
    [close],
  );
  return { open, toggle, close, triggerRef, panelRef, onPanelKeyDown };
}
