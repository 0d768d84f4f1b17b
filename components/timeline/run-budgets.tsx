'use client';

import { formatMs, formatUsd } from '@/lib/run-view/format';
import { requestSplitLabel } from '@/lib/run-view/request-counts';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { Stat } from '@/components/ui/stat';

/**
 * Spent against the run's budgets, as of now: turns, spend, run time and model request
 * attempts (a fork's own; the requests copied from its parent are shown beside them, not
 * counted against the budget). Whatever happens — a stall with no watchdog, endless retries — one of these ends
 * the run, and the one that did is named in the terminate banner.
 */
export function RunBudgets() {
  const budgets = useRunStore((s) => s.view.config?.budgets);
  const turns = useRunStore((s) => s.view.turns.length);
  const requests = useRunStore((s) => s.view.requests);
  const copiedRequests = useRunStore((s) => s.view.copiedRequests);
  const sdkRetries = useRunStore((s) => s.view.sdkRetries);
  const forked = useRunStore((s) => s.view.forkedFrom !== undefined);
  const usd = useRunStore((s) => s.view.totals.usd);
  const ended = useRunStore((s) => s.view.terminate?.reason);
  const now = useRunClock();
  if (!budgets) return null;
  const runMs = Math.min(now, budgets.maxRunMs);
  const spent = (key: string): string => (ended === key ? 'text-fail font-semibold' : '');
  return (
    <Stat
      label="budgets used"
      title="turns · spend · run time · model requests (foreground and background), each against its budget"
    >
      <span data-testid="run-budgets" className="flex flex-wrap gap-x-2">
        <span data-testid="turn-budget" className={spent('max_iterations')}>
          turn {turns}/{budgets.maxIterations}
        </span>
        <span className={spent('cost_budget')}>
          {formatUsd(usd)}/{formatUsd(budgets.maxCostUsd)}
        </span>
        <span data-testid="run-time-budget" className={spent('run_time_budget')}>
          {formatMs(runMs)}/{formatMs(budgets.maxRunMs)}
        </span>
        <span
          data-testid="attempt-budget"
          className={spent('attempt_budget')}
          title={
            forked
              ? "the attempt budget counts this run's own requests, not the ones copied from the parent"
              : undefined
          }
        >
          {requests}/{budgets.maxAttempts} req
        </span>
        {sdkRetries > 0 && (
          <span
            data-testid="http-requests"
            className="text-wait"
            title="the vendor SDK resent failed requests on its own beneath the loop (sdk_retry): each is an HTTP request the attempt budget does not see"
          >
            {requests + sdkRetries} HTTP ({sdkRetries} resent by the SDK)
          </span>
        )}
        {forked && (
          <span data-testid="request-split" className="text-faint">
            ({requestSplitLabel({ requests, copiedRequests })})
          </span>
        )}
      </span>
    </Stat>
  );
}
