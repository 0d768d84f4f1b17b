import type { RunStep } from './run-steps';

/** What one event is as a step, before the reader adds its seq, the background flag and the key. */
export interface DescribedStep {
  turn: number | null;
  kind: RunStep['kind'];
  /** The step's canonical content (made a key by the reader). */
  content: unknown;
  label: string;
}

export const step = (
  turn: number | null,
  kind: RunStep['kind'],
  content: unknown,
  label: string,
): DescribedStep => ({
  turn,
  kind,
  content,
  label,
});
