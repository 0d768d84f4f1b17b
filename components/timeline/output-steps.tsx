import { formatTokens } from '@/lib/run-view/format';
import type { OutputStepView } from '@/lib/run-view/run-view-state';
import { Pill } from '@/components/ui/pill';
import type { Tone } from '@/components/ui/tone';
import { WhyLine } from '@/components/explain/why-line';

const LABEL: Record<OutputStepView['action'], string> = {
  escalate: 'cap escalated',
  continue: 'continuation',
  exhausted: 'continuations spent',
  refuse_truncated: 'cut tool calls refused',
  continue_partial: 'continue after partial',
  stop_partial: 'partial presented',
};

const TONE: Record<OutputStepView['action'], Tone> = {
  escalate: 'wait',
  continue: 'wait',
  exhausted: 'fail',
  refuse_truncated: 'wait',
  continue_partial: 'wait',
  stop_partial: 'neutral',
};

/** Output-cap recovery inside a turn: each step with its one-line why and, where sent, the prompt. */
export function OutputSteps({ steps }: { steps: readonly OutputStepView[] }) {
  if (steps.length === 0) return null;
  return (
    <div className="flex flex-col gap-0.5">
      {steps.map((step) => (
        <div
          key={step.ts + step.action}
          data-testid="output-step"
          data-action={step.action}
          className="flex flex-wrap items-center gap-2 text-2xs"
        >
          <Pill tone={TONE[step.action]}>
            {LABEL[step.action]}
            {step.continuation !== undefined &&
            step.maxContinuations !== undefined &&
            step.action === 'continue'
              ? ` ${step.continuation} of ${step.maxContinuations}`
              : ''}
          </Pill>
          {step.nextMaxTokens !== undefined && (
            <span className="tabular font-mono">
              {formatTokens(step.maxTokens)} → {formatTokens(step.nextMaxTokens)} tok
            </span>
          )}
          <span className="text-muted">{step.reason}</span>
          {!step.kept && <span className="text-faint">({formatTokens(step.outputTokens)} tok not kept)</span>}
          {step.refused && step.refused.length > 0 && (
            <span className="font-mono text-faint">{step.refused.map((r) => r.tool).join(', ')}</span>
          )}
          <WhyLine seq={step.seq} className="w-full" linked />
          {step.prompt && (
            <details className="w-full pl-2">
              <summary className="cursor-pointer text-faint">sent to the model</summary>
              <p className="font-mono text-muted">{step.prompt}</p>
            </details>
          )}
        </div>
      ))}
    </div>
  );
}
