import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'danger' | 'plain';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-fg text-bg hover:opacity-90 border-fg',
  danger: 'bg-fail-soft text-fail border-fail/40 hover:bg-fail hover:text-white',
  plain: 'bg-panel text-fg border-line hover:bg-sunken',
};

export function Button({ variant = 'plain', className = '', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type="button"
      {...props}
      className={`rounded border px-2.5 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-40 ${VARIANTS[variant]} ${className}`}
    />
  );
}
