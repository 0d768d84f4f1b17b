import type { SweepStatus } from '@/lib/protocol';
import type { Tone } from '@/components/ui/tone';

/** A sweep still to end: running, or queued for the worker pool. */
export function isSweepOpen(status: SweepStatus): boolean {
  return status === 'running' || status === 'queued';
}

export const SWEEP_TONE: Record<SweepStatus, Tone> = {
  queued: 'neutral',
  running: 'run',
  completed: 'ok',
  cancelled: 'neutral',
  failed: 'fail',
  stopped: 'wait',
};
