import type { ComponentPropsWithRef } from 'react';

type Variant = 'primary' | 'danger' | 'plain';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-fg text-bg hover:opacity-90 border-fg',
  danger: 'bg-fail-soft text-fail border-fail/40 hover:bg-fail hover:text-white',
  plain: 'bg-panel text-fg border-line hover:bg-sunken',
};

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
      className={`rounded border px-2.5 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-40 ${VARIANTS[variant]} ${className}`}
    />
  );
}
