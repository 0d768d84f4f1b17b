'use client';

import type { RunTotals } from '@/lib/protocol';
import { cacheHitRate } from '@/lib/protocol/run-totals';
import { nestedTotals } from '@/lib/run-view/nested-totals';
import { isPriced } from '@/lib/protocol/models';
import { cacheSavingLabel, formatPercent, formatTokens, formatUsd } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { liveStatusReason } from '@/lib/client/explain/live-status-reason';
import { openAttempt } from '@/lib/run-view/reduce-run-event';
import { statusWord } from '@/lib/run-view/run-view-state';
import { latestAttempt } from '@/lib/run-view/turn-updates';
import { MODEL_TITLE_NOTE } from '@/lib/client/tables/runs-columns';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';
import { vendorStatLabel } from '@/lib/client/explain/vendor-stat-label';
import { Pill } from '@/components/ui/pill';
import { Stat } from '@/components/ui/stat';
import { VerdictPill } from '@/components/ui/verdict-pill';
import { TONE_PILL, statusTone } from '@/components/ui/tone';
import { RunBudgets } from './run-budgets';
import { RunClock } from './run-clock';
import { StatusAnnouncer } from './status-announcer';
import { useMemo, type ReactNode } from 'react';

/**
 * Is it running, waiting, recovering, done or failed — and why? `endedAs`: where the run's
 * ending is a mechanism doing its job (a lesson's side says so, lib/lessons endingByDesign),
 * the words shown instead of the status word, not in the failure's colour.
 */
export function RunHeader({ actions, endedAs }: { actions?: ReactNode; endedAs?: string | null }) {
  const status = useRunStore((s) => s.view.status);
  const totals = useRunStore((s) => s.view.totals);
  const vendor = useRunStore((s) => s.view.vendor);
  const model = useRunStore((s) => s.view.model);
  const disabled = useRunStore((s) => s.view.disabledTools);
  const budgets = useRunStore((s) => s.view.toolBudgets);
  const mcpServers = useRunStore((s) => s.view.mcpServers);
  const connection = useRunStore((s) => s.connection);
  const scenario = useRunStore((s) => s.view.scenario?.title);
  const title = useRunStore((s) => s.view.title);
  // A model Loop Lab has no price for shows its tokens and no invented cost.
  const unpriced = useRunStore((s) =>
    [
      ...new Set(
        s.view.turns.flatMap((t) => (t.result?.model && !isPriced(t.result.model) ? [t.result.model] : [])),
      ),
    ].join(', '),
  );
  const verdict = useRunStore((s) => s.view.verdict);
  // Sub-agents' spend, apart from the run's own (its totals count its own calls only).
  const turns = useRunStore((s) => s.view.turns);
  const nested = useMemo(() => nestedTotals({ turns }), [turns]);
  const ownRequests = useRunStore((s) => s.view.requests);
  const tone = endedAs ? 'ok' : statusTone(status);

  return (
    <div className="flex flex-wrap items-start gap-x-6 gap-y-2 border-b border-line bg-panel px-4 py-2">
      <div className="flex min-w-0 flex-1 basis-80 flex-col gap-1">
        <div
          data-testid="run-status"
          data-status={statusWord(status)}
          data-ended-as={endedAs ?? undefined}
          className={`inline-flex max-w-full items-center gap-2 self-start rounded border px-2 py-0.5 text-xs ${TONE_PILL[tone]}`}
        >
          <span className="font-semibold uppercase tracking-wide">{endedAs ?? statusWord(status)}</span>
          <StatusReason />
        </div>
        <StatusAnnouncer />
        {verdict && (
          <span className="flex items-center gap-1.5 text-2xs text-muted">
            <VerdictPill
              verdict={verdict.verdict}
              title={verdict.detail}
              testsNote={verdict.testsNote}
              missing={verdict.missing}
              hidden={verdict.hidden}
            />
            <span className="truncate font-mono" title={verdict.detail}>
              {verdict.check}
            </span>
          </span>
        )}
        {(title || scenario) && (
          <span className="truncate text-2xs text-muted" data-testid="run-title">
            {title ? (
              <span className="font-medium text-fg" title={MODEL_TITLE_NOTE}>
                {title}
              </span>
            ) : null}
            {/* The scenario's title once when the model's title is the same words. */}
            {title && scenario && title !== scenario ? ' · ' : null}
            {title !== scenario ? scenario : null}
          </span>
        )}
      </div>
      <RunClock />
      <Stat label="tokens in / out" testId="run-tokens">
        {formatTokens(totals.inputTokens)} / {formatTokens(totals.outputTokens)}
      </Stat>
      <Stat
        label="cost"
        testId="run-cost"
        title={
          unpriced ? `no known price for ${unpriced}: its tokens are counted, its cost is not` : undefined
        }
      >
        {unpriced && totals.usd === 0 ? 'not priced' : formatUsd(totals.usd)}
        {unpriced && totals.usd > 0 ? <span className="text-faint"> + unpriced</span> : null}
      </Stat>
      {nested.runs > 0 && (
        <Stat
          label="sub-agents"
          testId="run-subagents"
          title={`${nested.runs} sub-agent ${nested.runs === 1 ? 'run' : 'runs'} (each try counted), apart from the run's own tokens and cost; attempts tree-wide: the run's ${ownRequests} model requests and the sub-agents' ${nested.requests}`}
        >
          {formatTokens(nested.inputTokens)} / {formatTokens(nested.outputTokens)} · {formatUsd(nested.usd)}
          <span className="text-faint" data-testid="tree-attempts">
            {' '}
            · attempts tree-wide {ownRequests + nested.requests}
          </span>
        </Stat>
      )}
      {totals.cacheReadTokens + totals.cacheWriteTokens > 0 && (
        <Stat label="prompt cache" title={cacheTitle(totals)}>
          <span data-testid="cache-hit-rate">{formatPercent(cacheHitRate(totals))} read</span>
          <span className="text-faint"> · {cacheSavingLabel(totals.cacheSavedUsd)}</span>
        </Stat>
      )}
      <RunBudgets />
      <VendorStat vendor={vendor} model={model} />
      {disabled.length > 0 && (
        <Stat label="disabled tools">
          <span className="flex gap-1">
            {disabled.map((t) => (
              <Pill key={t} tone="fail">
                {t}
              </Pill>
            ))}
          </span>
        </Stat>
      )}
      {mcpServers && (
        <Stat label="MCP servers" testId="mcp-servers">
          <span className="flex flex-wrap gap-1">
            {Object.entries(mcpServers).map(([name, server]) => (
              <Pill key={name} tone={mcpTone(server)} title={server.why}>
                <span data-testid={`mcp-server-${name}`} data-decision={server.decision}>
                  {name}: {server.decision.replace(/_/g, ' ')} → {server.next.replace(/_/g, ' ')}
                </span>
              </Pill>
            ))}
          </span>
        </Stat>
      )}
      {Object.keys(budgets).length > 0 && (
        <Stat label="tool budgets left" title="failures left before a tool is disabled">
          {Object.entries(budgets)
            .map(([t, n]) => `${t} ${n}`)
            .join(' · ')}
        </Stat>
      )}
      <div className="flex items-center gap-2 self-center">
        {connection === 'connecting' && <Pill tone="wait">connecting…</Pill>}
        {connection === 'error' && <Pill tone="fail">stream lost</Pill>}
        {actions}
      </div>
    </div>
  );
}

/** An MCP server's pill: gone in the failure's colour, on its way back (what comes next is a reconnect or a re-list) in the wait's. */
function mcpTone(server: { decision: string; next: string }): 'fail' | 'wait' | 'ok' {
  if (server.decision === 'gone') return 'fail';
  return ['reconnect', 'connect', 'relist'].includes(server.next) ? 'wait' : 'ok';
}

/**
 * The status's reason, kept true between events: a retry wait counts down and a silent
 * stream says how long it has been silent (lib/client/explain/live-status-reason.ts). Only this line
 * re-renders on the clock's tick.
 */
/** The prompt cache's figures in words, from the one totals fold. */
function cacheTitle(totals: Readonly<RunTotals>): string {
  return `${formatTokens(totals.cacheReadTokens)} of ${formatTokens(totals.inputTokens)} prompt tokens were read from the vendor's prompt cache and ${formatTokens(totals.cacheWriteTokens)} written to it; at the model's cache prices that ${cacheSavingLabel(totals.cacheSavedUsd)} against sending them all as plain input`;
}

function StatusReason() {
  const status = useRunStore((s) => s.view.status);
  const reason = useRunStore((s) => s.view.reason);
  const waitTs = useRunStore((s) => pendingRetry(s.view)?.ts);
  const waitMs = useRunStore((s) => pendingRetry(s.view)?.waitMs);
  const quietSince = useRunStore((s) => quietSinceOf(s.view));
  const now = useRunClock();
  const pendingWait = waitTs !== undefined && waitMs !== undefined ? { ts: waitTs, waitMs } : undefined;
  const text = liveStatusReason({ status, reason, now, pendingWait, quietSince });
  return (
    // Two lines at most (four on a phone, where a waiting reason needs three): the terminate banner below carries the whole message.
    <span
      className="line-clamp-4 font-mono text-2xs break-words sm:line-clamp-2"
      title={text}
      data-testid="run-status-reason"
    >
      {text}
    </span>
  );
}

/** The vendor and model, labelled with what they are doing now; re-rendered on the clock's tick for a silent stream. */
function VendorStat({ vendor, model }: { vendor?: string | undefined; model?: string | undefined }) {
  const quietSince = useRunStore((s) => quietSinceOf(s.view));
  const now = useRunClock();
  const label = useRunStore((s) =>
    vendorStatLabel({
      status: s.view.status,
      vendor: s.view.vendor,
      model: s.view.model,
      turns: s.view.turns,
      quietMs: quietSince === undefined ? undefined : now - quietSince,
    }),
  );
  return (
    <Stat label={label}>
      <span className="text-takeover">{vendor ?? '–'}</span> {model ?? ''}
    </Stat>
  );
}

/** When the open attempt's stream last brought content (its watchdog armed and not fired). */
function quietSinceOf(view: Parameters<typeof openAttempt>[0]): number | undefined {
  const watchdog = openAttempt(view)?.watchdog;
  return watchdog && !watchdog.fired ? watchdog.lastResetTs : undefined;
}

/** The latest attempt's retry wait while it still runs (its next request not yet sent). */
function pendingRetry(view: Parameters<typeof latestAttempt>[0]) {
  const retry = latestAttempt(view)?.attempt.retry;
  return retry && retry.actualWaitMs === undefined && view.terminate === undefined ? retry : undefined;
}
