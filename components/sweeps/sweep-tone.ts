import type { SweepStatus } from '@/lib/protocol';
import type { Tone } from '@/components/ui/tone';

export const SWEEP_TONE: Record<SweepStatus, Tone> = { running: 'run', completed: 'ok', cancelled: 'neutral', failed: 'fail' };
