import type { ReactNode } from 'react';
import { TONE_PILL, type Tone } from './tone';

export function Pill({
  tone = 'neutral',
  children,
  title,
  testId,
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  testId?: string;
}) {
  return (
    <span
      title={title}
      data-testid={testId}
      className={`inline-flex items-center gap-1 rounded border px-1.5 py-px font-mono text-2xs leading-4 whitespace-nowrap ${TONE_PILL[tone]}`}
    >
      {children}
    </span>
  );
}
