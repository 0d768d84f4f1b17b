import type { AttemptOutcome, RunStatus, ToolCallViewStatus } from '@/lib/run-view/run-view-state';

/** One accent per meaning, used the same way everywhere. */
export type Tone = 'neutral' | 'run' | 'wait' | 'fail' | 'ok' | 'compact' | 'takeover';

export const TONE_TEXT: Record<Tone, string> = {
  neutral: 'text-muted',
  run: 'text-run',
  wait: 'text-wait',
  fail: 'text-fail',
  ok: 'text-ok',
  compact: 'text-compact',
  takeover: 'text-takeover',
};

export const TONE_PILL: Record<Tone, string> = {
  neutral: 'bg-sunken text-muted border-line',
  run: 'bg-run-soft text-run border-run/40',
  wait: 'bg-wait-soft text-wait border-wait/40',
  fail: 'bg-fail-soft text-fail border-fail/40',
  ok: 'bg-ok-soft text-ok border-ok/40',
  compact: 'bg-compact-soft text-compact border-compact/40',
  takeover: 'bg-takeover-soft text-takeover border-takeover/40',
};

export const TONE_BAR: Record<Tone, string> = {
  neutral: 'bg-faint',
  run: 'bg-run',
  wait: 'bg-wait',
  fail: 'bg-fail',
  ok: 'bg-ok',
  compact: 'bg-compact',
  takeover: 'bg-takeover',
};

/** Solid outlines for marks whose fill is translucent: the outline is what reads at 3:1 (WCAG 1.4.11). */
export const TONE_BORDER: Record<Tone, string> = {
  neutral: 'border-faint',
  run: 'border-run',
  wait: 'border-wait',
  fail: 'border-fail',
  ok: 'border-ok',
  compact: 'border-compact',
  takeover: 'border-takeover',
};

export function statusTone(status: RunStatus): Tone {
  switch (status) {
    case 'idle':
      return 'neutral';
    case 'running':
      return 'run';
    case 'waiting':
    case 'recovering':
      return 'wait';
    case 'done':
      return 'ok';
    case 'failed':
      return 'fail';
    case 'aborted':
      return 'neutral';
  }
}

export function outcomeTone(outcome: AttemptOutcome): Tone {
  switch (outcome) {
    case 'ok':
      return 'ok';
    case 'error':
      return 'fail';
    case 'stopped':
      return 'neutral';
    case 'watchdog':
    case 'cut':
      return 'wait';
    default:
      return 'run';
  }
}

export function toolTone(status: ToolCallViewStatus): Tone {
  if (status === 'ok') return 'ok';
  if (status === 'running') return 'run';
  if (
    status === 'blocked' ||
    status === 'short_circuit' ||
    status === 'disabled' ||
    status === 'refused_truncated' ||
    status === 'rate_limited'
  )
    return 'wait';
  return 'fail';
}
