'use client';

import Link from 'next/link';
import { compareUrl } from '@/lib/client/api/compare';
import { formatMs } from '@/lib/run-view/format';
import { useRuns } from '@/lib/client/api/runs';
import { usePopover } from '@/lib/client/hooks/use-popover';
import { Button } from '@/components/ui/button';

/** "Compare with…": pick another run (same scenario first) and open the comparison. */
export function CompareWith({ runId, scenario }: { runId: string; scenario: string | undefined }) {
  const { open, toggle, close, triggerRef, panelRef, onPanelKeyDown } = usePopover();
  return (
    <div className="relative">
      <Button
        ref={triggerRef}
        data-testid="compare-with"
        onClick={toggle}
        aria-expanded={open}
        aria-haspopup="dialog"
      >
        Compare with…
      </Button>
      {open && (
        <div
          ref={panelRef}
          onKeyDown={onPanelKeyDown}
          role="dialog"
          aria-label="compare this run with another"
        >
          <Picker runId={runId} scenario={scenario} onClose={close} />
        </div>
      )}
    </div>
  );
}

function Picker({
  runId,
  scenario,
  onClose,
}: {
  runId: string;
  scenario: string | undefined;
  onClose: () => void;
}) {
  const runs = useRuns();
  const others = (runs.data ?? []).filter((r) => r.id !== runId);
  // Same scenario first; newest first within each group (the list arrives newest first).
  const sorted = [
    ...others.filter((r) => r.scenario === scenario),
    ...others.filter((r) => r.scenario !== scenario),
  ];
  return (
    <div
      className="absolute right-0 top-full z-20 mt-1 w-[26rem] rounded border border-line bg-panel shadow-lg"
      data-testid="compare-picker"
    >
      <div className="flex items-center justify-between border-b border-line px-3 py-1.5 text-2xs text-muted">
        <span>Compare this run with… (same scenario first)</span>
        <button type="button" className="hover:text-fg" onClick={onClose}>
          close
        </button>
      </div>
      <div className="max-h-80 overflow-y-auto">
        {runs.isLoading && <p className="px-3 py-2 text-2xs text-muted">Loading runs…</p>}
        {runs.data && sorted.length === 0 && (
          <p className="px-3 py-2 text-2xs text-muted">
            No other run yet: start one, or run the counterfactual.
          </p>
        )}
        {sorted.map((r) => (
          <Link
            key={r.id}
            href={compareUrl(runId, r.id)}
            data-testid="compare-pick"
            className="flex items-center gap-2 border-b border-line px-3 py-1 text-2xs hover:bg-sunken"
          >
            <span
              className={`w-2 ${r.scenario === scenario ? 'text-ok' : 'text-faint'}`}
              title={r.scenario === scenario ? 'same scenario' : 'another scenario'}
            >
              {r.scenario === scenario ? '●' : '○'}
            </span>
            <span className="font-mono">{r.id}</span>
            <span className="truncate text-muted">{r.scenario}</span>
            <span className="ml-auto font-mono text-muted">
              {r.status === 'running' ? 'running' : (r.reason ?? r.status ?? '')}
            </span>
            <span className="tabular w-14 text-right font-mono text-muted">{formatMs(r.duration_ms)}</span>
          </Link>
        ))}
      </div>
    </div>
  );
}
