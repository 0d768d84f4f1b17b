'use client';

import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { EndpointKeyProvider, useEndpointKey } from '@/lib/client/forms/endpoint-key';
import { faultPlanFor } from '@/lib/client/forms/fault-catalog';
import { formToSearch } from '@/lib/client/forms/form-url';
import { buildRunRequest, type PlaygroundForm } from '@/lib/client/forms/playground-form';
import { formProblems } from '@/lib/client/forms/form-problems';
import { useControlRun, useCreateRun } from '@/lib/client/api/runs';
import { seedLists, type SeedLists } from '@/lib/client/api/seed-lists';
import { loadFold } from '@/lib/client/run-view/load-fold';
import { markRun, RUN_MARKS } from '@/lib/client/run-view/run-marks';
import { RunStoreProvider, useRunStore, useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import type { SwapAsk } from '@/lib/client/explain/swap-outcome';
import { useRunEvents } from '@/lib/client/hooks/use-run-events';
import { useRunKeyboard } from '@/lib/client/hooks/use-run-keyboard';
import { Button } from '@/components/ui/button';
import { PauseBar } from '@/components/timeline/pause-bar';
import { ControlPanel } from './control-panel';
import type { SwapTargetInput } from './swap-control';
import { OpenGroupsProvider } from './open-groups';

// The run's view is code the first paint does not draw (no run yet): loaded when a run is on
// screen, or fetched ahead at the visitor's first input (usePreloadRunView).
const loadRunView = () => import('@/components/timeline/run-view');
const RunView = dynamic(() => loadRunView().then((m) => m.RunView), {
  loading: () => <div className="m-auto text-xs text-faint">Loading the run view…</div>,
});

/** The visitor's first input of any kind: they are about to use the page, and maybe to run. */
const INPUTS = ['pointermove', 'pointerdown', 'keydown', 'focusin', 'touchstart', 'wheel'] as const;

/**
 * Fetches the run view's code and the run's fold (zod and the event schemas among them) ahead
 * of a run at the visitor's first input on the page (a pointer moved, a key, a touch), so Run
 * does not wait for them; a page left alone fetches neither (its JavaScript until idle is the
 * first paint's). A run on screen at load, or started before any input, loads them with it.
 */
function usePreloadRunView(): void {
  useEffect(() => {
    const stop = () => {
      for (const type of INPUTS) window.removeEventListener(type, load, { capture: true });
    };
    const load = () => {
      stop();
      void loadRunView();
      void loadFold();
    };
    for (const type of INPUTS) window.addEventListener(type, load, { capture: true, passive: true });
    return stop;
  }, []);
}

/**
 * The playground: controls on the left, the current run on the right. The form lives
 * above the per-run store, so starting a new run keeps the controls and resets the view.
 */
export function Playground({
  initial,
}: {
  initial: { form: PlaygroundForm; runId?: string; lists?: SeedLists };
}) {
  // The pickers' lists came with the page (app/page.tsx): cached before any picker asks for them.
  const queryClient = useQueryClient();
  useState(() => initial.lists && seedLists(queryClient, initial.lists));
  // The form and the run on screen live in the address bar: a reload or a shared link
  // restores the form (read by the server: app/page.tsx), and a reload mid-run reattaches to
  // the run (replayed, then live).
  const [form, setForm] = useState<PlaygroundForm>(initial.form);
  const [runId, setRunId] = useState<string | undefined>(initial.runId);
  usePreloadRunView();
  useEffect(() => {
    const search = formToSearch(form, runId);
    const url = `${window.location.pathname}${search ? `?${search}` : ''}`;
    if (url !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', url);
  }, [form, runId]);
  return (
    <OpenGroupsProvider>
      <EndpointKeyProvider>
        <RunStoreProvider runKey={runId}>
          <PlaygroundBody form={form} setForm={setForm} runId={runId} setRunId={setRunId} />
        </RunStoreProvider>
      </EndpointKeyProvider>
    </OpenGroupsProvider>
  );
}

function PlaygroundBody({
  form,
  setForm,
  runId,
  setRunId,
}: {
  form: PlaygroundForm;
  setForm: (update: (f: PlaygroundForm) => PlaygroundForm) => void;
  runId?: string;
  setRunId: (id: string) => void;
}) {
  const create = useCreateRun();
  const control = useControlRun();
  const [errors, setErrors] = useState<string[]>([]);
  const [swapAsk, setSwapAsk] = useState<SwapAsk>();
  const runStore = useRunStoreApi();
  const [apiKey] = useEndpointKey();
  // Narrow screens: the controls are a drawer, closed by default so the run has the width.
  const [drawer, setDrawer] = useState(false);
  const drawerToggle = useRef<HTMLButtonElement>(null);
  const live = useRunStore((s) => runId !== undefined && s.view.terminate === undefined);
  const current = useRunStore((s) => (s.view.vendor ? `${s.view.vendor}/${s.view.model ?? ''}` : undefined));
  const missing = useRunStore((s) => s.connection === 'error' && s.view.eventCount === 0);
  useRunEvents(runId);

  const run = useCallback(() => {
    // A field the server would refuse: Run is off and says which (the control panel shows it).
    if (create.isPending || formProblems(form).length > 0) return;
    markRun(RUN_MARKS.click);
    setErrors([]);
    create.mutate(buildRunRequest(form, apiKey), {
      onSuccess: ({ id }) => {
        setDrawer(false);
        setSwapAsk(undefined);
        setRunId(id);
      },
      onError: (error) =>
        setErrors(error instanceof ApiError ? [error.message, ...error.details] : [String(error)]),
    });
  }, [create, form, apiKey, setRunId]);

  const abort = useCallback(() => {
    if (runId && live) control.mutate({ id: runId, action: { action: 'abort' } });
  }, [control, runId, live]);

  useRunKeyboard({ onRun: run, onAbort: abort });

  const sendFaults = (ids: string[], toolTarget: string) => {
    if (runId && live)
      control.mutate({ id: runId, action: { action: 'set_faults', faults: faultPlanFor(ids, toolTarget) } });
  };
  const onFaultsChange = (ids: string[]) => {
    setForm((f) => ({ ...f, faults: ids }));
    sendFaults(ids, form.toolFaultTarget);
  };
  const onToolFaultTargetChange = (tool: string) => {
    setForm((f) => ({ ...f, toolFaultTarget: tool }));
    sendFaults(form.faults, tool);
  };

  const onSwap = (target: SwapTargetInput) => {
    if (!runId) return;
    const ask: SwapAsk = {
      target: `${target.vendor}${target.model ? `/${target.model}` : ''}`,
      afterSeq: runStore.getState().view.lastSeq,
      accepted: false,
    };
    setSwapAsk(ask);
    control.mutate(
      { id: runId, action: { action: 'swap', ...target } },
      {
        onSuccess: () => setSwapAsk((now) => (now === ask ? { ...ask, accepted: true } : now)),
        onError: (error) =>
          setSwapAsk((now) =>
            now === ask
              ? {
                  ...ask,
                  error:
                    error instanceof ApiError ? [error.message, ...error.details].join(' · ') : String(error),
                }
              : now,
          ),
      },
    );
  };

  return (
    <div className="flex h-[calc(100vh-var(--header-h))] min-h-0">
      <h1 className="sr-only">Playground</h1>
      <ControlPanel
        form={form}
        onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
        onFaultsChange={onFaultsChange}
        onToolFaultTargetChange={onToolFaultTargetChange}
        onRun={run}
        onAbort={abort}
        running={live}
        starting={create.isPending}
        live={live}
        errors={errors}
        current={current}
        onSwap={onSwap}
        onBreakpoints={(pause) => {
          if (runId && live)
            control.mutate({
              id: runId,
              action: { action: 'set_breakpoints', breakpoints: pause.breakpoints ?? [], by: 'playground' },
            });
        }}
        swapPending={control.isPending}
        swapAsk={swapAsk}
        runId={runId}
        drawerOpen={drawer}
        onCloseDrawer={() => {
          setDrawer(false);
          drawerToggle.current?.focus();
        }}
      />
      <section aria-label="run" className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center gap-2 border-b border-line bg-panel px-3 py-1.5 md:hidden">
          <Button
            ref={drawerToggle}
            onClick={() => setDrawer(true)}
            data-testid="controls-toggle"
            aria-expanded={drawer}
            aria-controls="run-controls"
          >
            <span aria-hidden>☰</span> Controls
          </Button>
          <Button variant="primary" onClick={run} disabled={create.isPending}>
            {create.isPending ? 'Starting…' : 'Run'}
          </Button>
          {/* The drawer is closed while a run plays: without this a phone could not stop it. */}
          {live && (
            <Button variant="danger" data-testid="bar-abort" onClick={abort} title="abort (a / Esc)">
              Abort
            </Button>
          )}
        </div>
        {runId && missing ? (
          <div className="m-auto max-w-md p-6 text-center text-xs text-fail" data-testid="run-missing">
            Could not reattach to run {runId}: its event stream did not open. Does it exist? Press Run to
            start a new one.
          </div>
        ) : runId ? (
          <>
            <PauseBar
              onControl={(action) => {
                if (live) control.mutate({ id: runId, action });
              }}
            />
            <RunView
              key={runId}
              headerActions={
                <Link
                  data-testid="run-link"
                  href={`/runs/${runId}`}
                  className="font-mono text-2xs text-takeover underline"
                >
                  /runs/{runId}
                </Link>
              }
            />
          </>
        ) : (
          <EmptyState />
        )}
      </section>
    </div>
  );
}

function EmptyState() {
  return (
    <div className="m-auto max-w-md p-6 text-center text-xs text-muted">
      <p className="mb-2 text-sm text-fg">Pick a scenario, switch on a fault, press Run.</p>
      <p>
        Every decision the loop makes to survive — classify, retry, wait, widen the watchdog, fall back —
        streams in here as it happens. Try <span className="font-mono">overloaded ×3</span> with the CodeSmith
        preset, then the same with
        <span className="font-mono"> naive</span>.
      </p>
    </div>
  );
}
