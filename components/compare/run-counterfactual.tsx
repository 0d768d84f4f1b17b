'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { usePopover } from '@/lib/client/hooks/use-popover';
import { mechanismAlreadyOff } from '@/lib/compare/mechanism-already-off';
import { api, ApiError } from '@/lib/client/api/client';
import { compareUrl } from '@/lib/client/api/compare';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { configWithMechanismOff, MECHANISM_LIST } from '@/lib/mechanisms/mechanisms';
import type { MechanismId } from '@/lib/protocol';
import { Button } from '@/components/ui/button';

/**
 * "Run the counterfactual": the same config and seed with one mechanism switched off
 * (lib/mechanisms/mechanisms.ts), started as a new run, then both opened side by side.
 */
export function RunCounterfactual({ runId }: { runId: string }) {
  const { open, toggle, close, triggerRef, panelRef, onPanelKeyDown } = usePopover();
  return (
    <div className="relative">
      <Button
        ref={triggerRef}
        data-testid="counterfactual"
        onClick={toggle}
        aria-expanded={open}
        aria-haspopup="dialog"
        title="the same config and seed with one mechanism off, side by side"
      >
        Run the counterfactual…
      </Button>
      {open && (
        <div ref={panelRef} onKeyDown={onPanelKeyDown} role="dialog" aria-label="run the counterfactual">
          <Chooser runId={runId} onClose={close} />
        </div>
      )}
    </div>
  );
}

function Chooser({ runId, onClose }: { runId: string; onClose: () => void }) {
  const router = useRouter();
  const recovery = useRunStore((s) => s.view.recovery);
  const config = useRunStore((s) => s.view.config);
  const [choice, setChoice] = useState<MechanismId | ''>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const off = (id: MechanismId) =>
    recovery && config
      ? mechanismAlreadyOff(
          {
            recovery,
            takeover: config.takeover,
            verdict: config.verdict,
            pause: config.pause,
            mcp: config.mcp,
          },
          id,
        )
      : false;
  const chosen = MECHANISM_LIST.find((m) => m.id === choice);

  const start = async () => {
    if (!choice) return;
    setBusy(true);
    setError(null);
    try {
      // The stored config, exactly as this run was started: same seed, faults, prompts, budgets.
      const detail = await api.getRun(runId);
      if (!detail.config) throw new Error('this run has no stored config to start again');
      const { id } = await api.createRun(configWithMechanismOff(detail.config, choice));
      router.push(compareUrl(runId, id));
    } catch (e) {
      setError(
        e instanceof ApiError
          ? [e.message, ...e.details].join(': ')
          : e instanceof Error
            ? e.message
            : String(e),
      );
      setBusy(false);
    }
  };

  return (
    <div
      className="absolute right-0 top-full z-20 mt-1 w-[26rem] rounded border border-line bg-panel p-3 shadow-lg"
      data-testid="counterfactual-chooser"
    >
      <label className="flex flex-col gap-1 text-2xs text-muted">
        Switch off one mechanism; everything else (seed, faults, prompts) stays as in this run:
        <select
          data-testid="counterfactual-mechanism"
          className="rounded border border-line bg-bg px-1 py-1 text-xs text-fg"
          value={choice}
          onChange={(e) => setChoice(e.target.value as MechanismId | '')}
        >
          <option value="">choose a mechanism…</option>
          {MECHANISM_LIST.map((m) => (
            <option key={m.id} value={m.id} disabled={off(m.id)}>
              {m.label}
              {off(m.id) ? ' (already off in this run)' : ''}
            </option>
          ))}
        </select>
      </label>
      {chosen && <p className="mt-1.5 text-2xs text-muted">{chosen.oneLine}</p>}
      {error && (
        <p className="mt-1.5 text-2xs text-fail" data-testid="counterfactual-error">
          Could not start it: {error}
        </p>
      )}
      <div className="mt-2 flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="primary"
          data-testid="counterfactual-start"
          disabled={!choice || busy}
          onClick={() => void start()}
        >
          {busy ? 'Starting…' : 'Start and compare'}
        </Button>
      </div>
    </div>
  );
}
