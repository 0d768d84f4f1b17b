'use client';

import { useState } from 'react';
import { useControlRun } from '@/lib/client/api/runs';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { Button } from '@/components/ui/button';
import { BreakerLamp } from './breaker-lamp';
import { CompactionSteps } from './compaction-steps';
import { ContextGauge, tokens } from './context-gauge';
import { OverflowStepper } from './overflow-stepper';
import { SentView } from './sent-view';

/**
 * The context channel of a run: the gauge, the breaker lamp and "Compact now", the overflow
 * stepper, the compaction steps, and what the selected request actually sent.
 */
export function ContextPanel() {
  const context = useRunStore((s) => s.view.context);
  const compaction = useRunStore((s) => s.view.recovery?.compaction);
  const runId = useRunStore((s) => s.view.runId);
  const live = useRunStore((s) => s.view.status !== 'idle' && s.view.terminate === undefined);
  const control = useControlRun();
  const [open, setOpen] = useState(true);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  const { samples, steps, overflows } = context;
  if (samples.length === 0) return null;
  const selected = picked !== undefined && picked < samples.length ? picked : samples.length - 1;
  const last = samples.at(-1)!;
  const pct =
    last.window > 0 ? Math.round(((last.reported ?? last.tokensEst) / last.window) * 100) : undefined;
  const compactedSince = asked > 0 && steps.some((s) => s.trigger === 'manual' && s.seq > asked);
  const compactNow = () => {
    if (!runId || !live) return;
    setAsked(context.samples.at(-1)?.seq ?? 1);
    control.mutate({ id: runId, action: { action: 'compact' } });
  };

  return (
    <section data-testid="context-panel" className="border-b border-line bg-panel px-3 py-1.5">
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={() => setOpen(!open)} className="text-xs font-semibold text-compact">
          {open ? '▾' : '▸'} Context
        </button>
        <span data-testid="context-now" className="tabular font-mono text-2xs">
          {last.reported !== undefined
            ? `${tokens(last.reported)} reported`
            : `~${tokens(last.tokensEst)} estimated`}
          {last.window > 0 ? ` / ${tokens(last.window)} tokens (${pct} %)` : ' tokens'} · threshold{' '}
          {tokens(last.threshold)}
          {last.cached ? ` · ${tokens(last.cached.read)} read from the cache` : ''}
        </span>
        {compaction?.breaker && (
          <BreakerLamp breaker={context.breaker} threshold={compaction.breakerFailures} />
        )}
        <Button
          data-testid="compact-now"
          className="ml-auto"
          onClick={compactNow}
          disabled={!live || (asked > 0 && !compactedSince && live)}
          title="a full compaction (summary call) before the next request, past the threshold and the breaker"
        >
          {asked > 0 && !compactedSince && live ? 'Compact requested…' : 'Compact now'}
        </Button>
      </div>
      {open && (
        <div className="mt-1 grid max-h-[45vh] gap-2 overflow-y-auto lg:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-2">
            <ContextGauge samples={samples} steps={steps} selected={selected} onSelect={setPicked} />
            <div className="text-2xs text-muted">
              outline: estimated before sending · fill: reported by the vendor (solid: read from its prompt
              cache) · dashed: threshold · red line: window · ▼ compaction. Click a column for what it sent.
            </div>
            {overflows.length > 0 && <OverflowStepper overflows={overflows} steps={steps} />}
            <CompactionSteps steps={steps} />
          </div>
          <div className="max-h-96 min-w-0 overflow-y-auto">
            <SentView sample={samples[selected]!} index={selected} />
          </div>
        </div>
      )}
    </section>
  );
}
