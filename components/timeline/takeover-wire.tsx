'use client';

import { useMemo, useState } from 'react';
import type { SentBody } from '@/lib/protocol';
import { countOf } from '@/lib/run-view/format';
import { curlFor, noCurlReason } from '@/lib/client/wire/curl';
import { CopyButton } from '@/components/ui/copy-button';
import { lineDiff } from '@/lib/client/wire/line-diff';

type WireTab = 'bodies' | 'diff' | 'naive';

/**
 * The wire on both sides of a swap: the last body sent to the vendor left behind and the first
 * body sent to the new one, as their adapters sent them (kept on the swap's events), side by
 * side or as a line diff; and the naive body — the history as it was — with the diff from the
 * body really sent. Each body copies as curl with the key as an environment variable.
 */
export function TakeoverWire({
  before,
  after,
  naive,
}: {
  before?: SentBody;
  after?: SentBody;
  naive?: SentBody;
}) {
  const [tab, setTab] = useState<WireTab>('bodies');
  if (!before && !after) return null;
  const tabs: { id: WireTab; label: string; offered: boolean }[] = [
    { id: 'bodies', label: 'request before · after', offered: true },
    {
      id: 'diff',
      label: 'diff before → after',
      offered: before?.body !== undefined && after?.body !== undefined,
    },
    {
      id: 'naive',
      label: 'diff sent → naive',
      offered: naive?.body !== undefined && after?.body !== undefined,
    },
  ];
  return (
    <div className="mt-1" data-testid="takeover-wire">
      <div className="flex flex-wrap items-center gap-2" role="tablist" aria-label="the wire">
        <span className="font-semibold text-fg">The wire</span>
        {tabs
          .filter((t) => t.offered)
          .map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              data-testid={`wire-tab-${t.id}`}
              className={
                tab === t.id
                  ? 'rounded bg-takeover-soft px-1 text-takeover'
                  : 'px-1 text-muted underline decoration-dotted'
              }
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
      </div>
      {tab === 'bodies' && (
        <div className="mt-1 grid gap-2 md:grid-cols-2">
          <BodyPane
            title="before the swap"
            sent={before}
            testId="wire-before"
            missing="nothing was sent before the swap"
          />
          <BodyPane
            title="after the swap, as sent"
            sent={after}
            testId="wire-after"
            missing="the first request on the new vendor has not been sent yet"
          />
        </div>
      )}
      {tab === 'diff' && before?.body !== undefined && after?.body !== undefined && (
        <BodyDiff left={before.body} right={after.body} legend={[before, after]} />
      )}
      {tab === 'naive' && naive?.body !== undefined && after?.body !== undefined && (
        <>
          <BodyDiff left={after.body} right={naive.body} legend={[after, naive]} />
          <BodyPane
            title="the naive body (history as it was), the one the vendor's answer judged"
            sent={naive}
            testId="wire-naive"
            missing=""
          />
        </>
      )}
    </div>
  );
}

function BodyPane({
  title,
  sent,
  testId,
  missing,
}: {
  title: string;
  sent?: SentBody;
  testId: string;
  missing: string;
}) {
  const json = useMemo(
    () => (sent?.body !== undefined ? JSON.stringify(sent.body, null, 2) : undefined),
    [sent],
  );
  if (!sent) return <p className="text-muted">{missing}</p>;
  return (
    <div className="min-w-0" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2 text-muted">
        <span className="font-semibold text-fg">{title}</span>
        <span className="font-mono">
          {sent.vendor}/{sent.model}
        </span>
        {sent.url && <span className="font-mono">POST {sent.url}</span>}
        <span>{countOf(sent.chars, 'character')}</span>
        <CopyCurl sent={sent} />
      </div>
      {json === undefined ? (
        <p className="text-muted">not kept: {sent.omitted}</p>
      ) : (
        <pre className="mt-1 max-h-64 overflow-auto rounded border border-line bg-sunken p-1 font-mono text-2xs whitespace-pre-wrap wrap-anywhere">
          {json}
        </pre>
      )}
    </div>
  );
}

function CopyCurl({ sent }: { sent: SentBody }) {
  const curl = curlFor(sent);
  // A body not kept says so below, in place of the body.
  if (sent.body === undefined) return null;
  if (!curl) return <span className="text-faint">no curl: {noCurlReason(sent)}</span>;
  return (
    <CopyButton
      look="link"
      testId="copy-curl"
      text={curl}
      note="the key is an environment variable: set it in your shell"
    >
      copy as curl
    </CopyButton>
  );
}

function BodyDiff({ left, right, legend }: { left: unknown; right: unknown; legend: [SentBody, SentBody] }) {
  const diff = useMemo(
    () => lineDiff(JSON.stringify(left, null, 2), JSON.stringify(right, null, 2)),
    [left, right],
  );
  return (
    <div className="mt-1 min-w-0" data-testid="wire-diff">
      <p className="text-muted">
        <span className="text-fail">− {legend[0].vendor}</span> ·{' '}
        <span className="text-ok">+ {legend[1].vendor}</span> · {diff.removed} lines removed, {diff.added}{' '}
        added{diff.unaligned ? ` (${diff.unaligned})` : ''}
      </p>
      <pre className="mt-1 max-h-64 overflow-auto rounded border border-line bg-sunken p-1 font-mono text-2xs whitespace-pre-wrap wrap-anywhere">
        {diff.lines.map((line, i) => (
          <div
            key={i}
            className={
              line.kind === 'added'
                ? 'bg-ok/10 text-ok'
                : line.kind === 'removed'
                  ? 'bg-fail/10 text-fail'
                  : 'text-muted'
            }
          >
            {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}
