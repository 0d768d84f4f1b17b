import type { ComponentPropsWithRef } from 'react';

type Variant = 'primary' | 'danger' | 'plain';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-fg text-bg hover:opacity-90 border-fg',
  danger: 'bg-fail-soft text-fail border-fail/40 hover:bg-fail hover:text-white',
  plain: 'bg-panel text-fg border-line hover:bg-sunken',
};

/**
 * A button that cannot be pressed looks the same in every variant and theme: grey on the sunken
 * ground, its colour gone (a faded red Abort still read as live on the dark theme).
 */
const DISABLED =
  'disabled:cursor-not-allowed disabled:border-line disabled:bg-sunken disabled:text-faint disabled:hover:bg-sunken disabled:hover:text-faint disabled:hover:opacity-100';

/** A button; `ref` passes through (React 19), so a popover can return focus to it. */
export function Button({
  variant = 'plain',
  className = '',
  ...props
}: ComponentPropsWithRef<'button'> & { variant?: Variant }) {
  return (
    <button
      type="button"
      {...props}
      className={`rounded border px-2.5 py-1 text-xs font-medium ${VARIANTS[variant]} ${DISABLED} ${className}`}
    />
  );
}
