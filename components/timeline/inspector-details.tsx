import { errorCause, formatMs, formatTokens } from '@/lib/run-view/format';
import type { AttemptView, MarkerView, ToolCallView, TurnView } from '@/lib/run-view/run-view-state';
import { JsonView } from '@/components/ui/json-view';
import { AttemptWire } from './attempt-wire';
import { LongText } from '@/components/ui/long-text';
import type { ReactNode } from 'react';

function Row({ k, children }: { k: string; children: ReactNode }) {
  return (
    <div className="flex gap-2 py-0.5">
      <span className="w-28 shrink-0 text-faint">{k}</span>
      <span className="tabular min-w-0 font-mono break-words">{children}</span>
    </div>
  );
}

function AttemptDetails({ a }: { a: AttemptView }) {
  return (
    <>
      <h3 className="mb-1 font-semibold">
        Attempt {a.attempt} · request {a.requestNo}
        {a.background ? ' · background' : ''}
      </h3>
      <Row k="vendor / model">
        {a.vendor} / {a.model}
      </Row>
      <Row k="request">
        {a.messageCount} messages · ~{formatTokens(a.inputTokensEst)} tok · max {formatTokens(a.maxTokens)}
      </Row>
      {a.maxTokensWhy && <Row k="output cap">{a.maxTokensWhy}</Row>}
      {a.sdkRetries?.map((r) => (
        <Row key={r.seq} k={`SDK retry ${r.retry}/${r.maxRetries}`}>
          request {r.requestNo} after{' '}
          {r.afterStatus !== undefined ? `HTTP ${r.afterStatus}` : 'a connection error'} · {r.formula}
        </Row>
      ))}
      <Row k="timing">
        start {formatMs(a.startTs)}
        {a.ttfbMs !== undefined ? ` · ttfb ${formatMs(a.ttfbMs)}` : ''}
        {a.endTs !== undefined ? ` · end ${formatMs(a.endTs)}` : ' · open'}
      </Row>
      <Row k="outcome">{a.outcome}</Row>
      {a.responseId && <Row k="response id">{a.responseId}</Row>}
      {a.error && (
        <>
          <Row k="error">
            {errorCause(a.error)}
            {a.error.vendorType ? ` (${a.error.vendorType})` : ''}
          </Row>
          <Row k="classified by">
            rule {a.error.rule} · {a.error.retryable ? 'retryable' : 'not retryable'} ·{' '}
            {a.error.partial ? 'content had arrived' : 'no content yet'}
          </Row>
          <Row k="message">
            <LongText text={a.error.message} max={300} />
          </Row>
        </>
      )}
      {a.watchdog && (
        <Row k="watchdog">
          window {formatMs(a.watchdog.windowMs)}
          {a.watchdog.fired
            ? ` · fired at ${formatMs(a.watchdog.fired.ts)} (${a.watchdog.fired.outcome})`
            : ' · armed'}
        </Row>
      )}
      {a.retry && (
        <Row k="retry">
          {a.retry.rung} → attempt {a.retry.nextAttempt} of {a.retry.maxAttempts} · calc{' '}
          {formatMs(a.retry.computedDelayMs)}
          {a.retry.retryAfterMs !== undefined ? ` · server asked ${formatMs(a.retry.retryAfterMs)}` : ''} ·
          wait {formatMs(a.retry.waitMs)}
          {a.retry.actualWaitMs !== undefined ? ` · actual ${formatMs(a.retry.actualWaitMs)}` : ''} —{' '}
          {a.retry.reason}
        </Row>
      )}
      {a.retry?.formula && (
        <Row k="backoff">
          <span data-testid="backoff-formula">{a.retry.formula}</span>
        </Row>
      )}
      {a.result && (
        <Row k="result">
          {a.result.stopReason}
          {a.result.vendorStopReason ? ` (${a.result.vendorStopReason})` : ''} · {a.result.inputTokens} in /{' '}
          {a.result.outputTokens} out · {formatMs(a.result.latencyMs)}
        </Row>
      )}
      {a.body !== undefined && (
        <div className="mt-2">
          <JsonView
            value={a.body}
            label={a.bodyAt ? `vendor request as sent: ${a.bodyAt}` : 'vendor request as sent'}
          />
        </div>
      )}
      <AttemptWire
        requestNos={[a.requestNo, ...(a.sdkRetries ?? []).map((r) => r.requestNo)]}
        open={a.endTs === undefined}
      />
    </>
  );
}

function ToolDetails({ c }: { c: ToolCallView }) {
  return (
    <>
      <h3 className="mb-1 font-semibold">Tool call {c.tool}</h3>
      <Row k="status">
        {c.status}
        {c.isError ? ' (is_error)' : ''}
      </Row>
      <Row k="call id">{c.callId ?? '–'}</Row>
      <Row k="timing">
        start {formatMs(c.startTs)} · {formatMs(c.latencyMs)}
      </Row>
      {c.truncatedChars ? <Row k="truncated">{c.truncatedChars} chars cut</Row> : null}
      {c.repairs?.map((r) => (
        <Row key={r.seq} k={r.rung === 'json' ? 'repaired (JSON text)' : 'repaired (coerced)'}>
          {r.changes.join('; ')}
          <LongText text={`${r.before}\n→ ${r.after}`} max={600} />
        </Row>
      ))}
      <Row k={c.repaired ? 'args (as run)' : 'args'}>
        <LongText text={JSON.stringify(c.args, null, 2)} max={600} />
      </Row>
      {c.result !== undefined && (
        <Row k="result">
          <LongText text={c.result} max={800} />
        </Row>
      )}
    </>
  );
}

const MARKER_TITLE: Record<MarkerView['kind'], string> = {
  fault: 'Fault injected',
  control: 'Control',
  log: 'Log',
  swap: 'Vendor swap',
  storage: 'Event lost: the store could not encode it',
};

export function InspectorDetails({
  turn,
  attempt,
  tool,
  marker,
}: {
  turn?: TurnView;
  attempt?: AttemptView;
  tool?: ToolCallView;
  marker?: MarkerView;
}) {
  if (attempt) return <AttemptDetails a={attempt} />;
  if (tool) return <ToolDetails c={tool} />;
  if (marker) {
    return (
      <>
        <h3 className="mb-1 font-semibold">{MARKER_TITLE[marker.kind]}</h3>
        <Row k="at">
          {formatMs(marker.ts)}
          {marker.iteration !== undefined ? ` · turn ${marker.iteration}` : ''}
        </Row>
        <Row k="what">{marker.label}</Row>
        {marker.detail && <Row k="detail">{marker.detail}</Row>}
      </>
    );
  }
  if (turn) {
    return (
      <>
        <h3 className="mb-1 font-semibold">Turn {turn.iteration}</h3>
        <Row k="time">
          {formatMs(turn.startTs)} → {formatMs(turn.lastTs)}
        </Row>
        <Row k="attempts">
          {turn.attempts.length} ({turn.attempts.filter((a) => a.error).length} failed)
        </Row>
        <Row k="tool calls">{turn.toolCalls.length}</Row>
        {turn.result && (
          <Row k="stop">
            {turn.result.stopReason} · {turn.result.inputTokens} in / {turn.result.outputTokens} out
          </Row>
        )}
        {turn.result?.message && (
          <div className="mt-2">
            <JsonView value={turn.result.message} label="neutral message" />
          </div>
        )}
      </>
    );
  }
  return <p className="text-faint">The selected item is gone.</p>;
}
