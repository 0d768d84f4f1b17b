'use client';

import Link from 'next/link';
import { traceUrl } from '@/lib/client/api/client';
import { useControlRun } from '@/lib/client/api/runs';
import { RunStoreProvider, useRunStore, type FoldedRun } from '@/lib/client/run-view/run-store-provider';
import { useRunEvents } from '@/lib/client/hooks/use-run-events';
import { useRunKeyboard } from '@/lib/client/hooks/use-run-keyboard';
import { useTurnFromUrl } from '@/lib/client/hooks/use-turn-from-url';
import { Button } from '@/components/ui/button';
import { LogProgress } from '@/components/timeline/log-progress';
import { RunView } from '@/components/timeline/run-view';
import { CompareWith } from '@/components/compare/compare-with';
import { RunCounterfactual } from '@/components/compare/run-counterfactual';
import { RunActions } from './run-actions';
import { RunConfigPanel } from './run-config-panel';
import { ForkControl } from './fork-control';
import { ForkLinks } from './fork-links';
import { SaveCassette } from './save-cassette';
import { ShareRun } from './share-run';

/**
 * Any run: a finished one comes folded by the server with the page (`folded`, drawn in its
 * HTML) or asked for folded, a live one streams (use-run-events.ts).
 */
export function RunPage({ runId, folded }: { runId: string; folded?: FoldedRun }) {
  return (
    <RunStoreProvider key={runId} folded={folded}>
      <RunPageBody runId={runId} />
    </RunStoreProvider>
  );
}

function RunPageBody({ runId }: { runId: string }) {
  useRunEvents(runId);
  const control = useControlRun();
  const live = useRunStore((s) => s.view.status !== 'idle' && s.view.terminate === undefined);
  const connection = useRunStore((s) => s.connection);
  const eventCount = useRunStore((s) => s.view.eventCount);
  const config = useRunStore((s) => s.view.config);
  const swaps = useRunStore((s) => s.view.swaps);
  const scenario = config?.scenario;
  const abort = () => {
    if (live) control.mutate({ id: runId, action: { action: 'abort' } });
  };
  useRunKeyboard({ onAbort: abort });
  useTurnFromUrl();

  return (
    <div className="flex h-[calc(100vh-var(--header-h))] min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-sunken px-4 py-1 text-2xs">
        <Link href="/runs" className="text-muted hover:text-fg">
          ← runs
        </Link>
        <h1 className="truncate font-mono text-muted">
          <span className="sr-only">Run </span>
          {runId}
        </h1>
        {config && <RunActions config={config} />}
        <span className="ml-auto flex items-center gap-2">
          <CompareWith runId={runId} scenario={scenario} />
          <RunCounterfactual runId={runId} />
        </span>
        <LogProgress />
        <a
          data-testid="download-trace"
          href={traceUrl(runId)}
          download={`${runId}.jsonl`}
          className="text-takeover underline"
        >
          Download trace
        </a>
        <a
          data-testid="download-otel"
          href={`/api/runs/${encodeURIComponent(runId)}/otel`}
          download={`${runId}.otlp.json`}
          className="text-takeover underline"
          title="OTLP/JSON with GenAI spans, for Jaeger, Phoenix, Langfuse or any OTLP backend"
        >
          OTLP
        </a>
        <SaveCassette runId={runId} finished={!live && eventCount > 0} />
        <ShareRun runId={runId} />
        <ForkControl runId={runId} />
        <Button
          variant="danger"
          data-testid="abort-button"
          onClick={abort}
          disabled={!live}
          title="abort (a / Esc)"
        >
          Abort
        </Button>
      </div>
      {config && <RunConfigPanel config={config} swaps={swaps} />}
      <ForkLinks runId={runId} />
      {connection === 'error' && eventCount === 0 ? (
        <div className="m-auto text-xs text-fail" data-testid="run-missing">
          Could not open the event stream of run {runId}. Does it exist?
        </div>
      ) : (
        <RunView />
      )}
    </div>
  );
}
