/** The run's title: one background call once the work is done. */
import type { RunTotals } from '@/lib/protocol';
import { answerText, backgroundCall } from './background-call';
import type { RunBinding } from './binding';
import type { CallState } from './model-call';
import { recordCall } from './record-call';
import type { LoopOptions } from './run-loop';

const TITLE_SYSTEM =
  'Write a title for the agent run below: at most six words, no quotes, no trailing period.';

/**
 * A background call for the run's title once the work is done; the run ends the same without
 * it. The model sees the task only: the run's outcome text is the model's own claim (it can say
 * "fixed" when the check still fails), so a title written from it could claim what the run did
 * not do.
 */
export async function titleRun({
  options,
  binding,
  state,
  totals,
  iteration,
}: {
  options: LoopOptions;
  binding: RunBinding;
  state: CallState;
  totals: RunTotals;
  iteration: number;
}): Promise<void> {
  const result = await backgroundCall({
    binding,
    system: TITLE_SYSTEM,
    messages: [{ role: 'user', parts: [{ type: 'text', text: `Task: ${options.task}` }] }],
    maxTokens: 64,
    recovery: options.recovery,
    state,
    clock: options.clock,
    random: options.random,
    emit: options.emit,
    signal: options.signal,
    probe: options.probe,
    iteration,
    purpose: 'title',
  });
  if (!result) return;
  recordCall({ options, binding, totals, iteration, result, purpose: 'title' });
  const title = answerText(result);
  if (title) options.emit({ event: 'run_title', iteration, title });
}
