'use client';

import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { RunEvent } from '@/lib/protocol';
import type { WireExchange } from '@/lib/protocol/wire';
import { api } from '@/lib/client/api/client';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { wireCurl, wirePython, wireTypeScript, sdkCallOf } from '@/lib/client/wire/as-code';
import { formatMs } from '@/lib/run-view/format';
import { CopyButton } from '@/components/ui/copy-button';

/** Reads drawn at most; the rest are counted (a long stream has thousands). */
const CHUNKS_SHOWN = 400;
const KEY_NOTE = 'the key is an environment variable: set it in your shell';

/**
 * An attempt's wire: each HTTP request it made (the SDK's own retries too) as the SDK sent it and
 * the response as the SDK received it — faults included, since it is recorded above the fault
 * wrapper — with the run-clock time of the response's headers and of each read of its body. Each
 * request copies as curl, as the TypeScript SDK call and as the Python one, the key read from an
 * environment variable. Loaded from the server when opened (GET /api/runs/{id}/wire?n=).
 */
export function AttemptWire({
  requestNos,
  open: attemptOpen,
}: {
  requestNos: readonly number[];
  open: boolean;
}) {
  const [shown, setShown] = useState(false);
  const runId = useRunStore((s) => s.view.runId);
  if (!runId) return null;
  return (
    <div className="mt-2 border-t border-line pt-2" data-testid="attempt-wire">
      <button
        type="button"
        className="text-takeover underline decoration-dotted"
        aria-expanded={shown}
        data-testid="wire-toggle"
        onClick={() => setShown(!shown)}
      >
        {shown
          ? 'hide the wire'
          : `show the wire (${requestNos.length === 1 ? 'the request' : `${requestNos.length} requests`} as sent and received)`}
      </button>
      {shown && requestNos.map((n) => <RequestWire key={n} runId={runId} n={n} attemptOpen={attemptOpen} />)}
    </div>
  );
}

function RequestWire({ runId, n, attemptOpen }: { runId: string; n: number; attemptOpen: boolean }) {
  const query = useQuery({
    queryKey: ['run-wire', runId, n],
    queryFn: () => api.runWire(runId, n),
    // A request is kept once its response has ended: a live run's open attempt asks again.
    refetchInterval: (q) =>
      q.state.data && q.state.data.live && q.state.data.requests.length === 0 ? 1_000 : false,
    staleTime: attemptOpen ? 0 : Infinity,
    retry: 0,
  });
  const log = useRunStore((s) => s.log);
  const eventCount = useRunStore((s) => s.view.eventCount);
  const faults = useMemo(
    () =>
      log.filter(
        (e): e is Extract<RunEvent, { event: 'fault_injected' }> =>
          e.event === 'fault_injected' && e.request_no === n,
      ),
    // eventCount: the log grew (it is appended in place)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [log, eventCount, n],
  );
  if (query.isPending) return <p className="mt-1 text-muted">request {n}: loading its wire…</p>;
  if (query.isError)
    return (
      <p className="mt-1 text-fail">
        request {n}: {query.error.message}
      </p>
    );
  const stored = query.data.requests[0];
  if (!stored)
    return (
      <p className="mt-1 text-muted" data-testid="wire-missing">
        request {n}:{' '}
        {query.data.live
          ? 'its response has not ended yet; its wire is kept when it does'
          : 'this server kept no wire for it (runs of a sweep, imported runs and runs from before the wire was kept have none)'}
      </p>
    );
  if (!stored.exchange)
    return (
      <p className="mt-1 text-muted" data-testid="wire-missing">
        request {n}: {stored.omitted}
      </p>
    );
  return <ExchangeView exchange={stored.exchange} faults={faults} />;
}

function ExchangeView({
  exchange,
  faults,
}: {
  exchange: WireExchange;
  faults: readonly Extract<RunEvent, { event: 'fault_injected' }>[];
}) {
  const { request, response } = exchange;
  const call = sdkCallOf(exchange);
  const ts = wireTypeScript(exchange);
  const py = wirePython(exchange);
  return (
    <div className="mt-2 min-w-0" data-testid="wire-exchange" data-request-no={exchange.n}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">request {exchange.n}</span>
        <span className="font-mono text-muted">
          {request.method} {request.url}
        </span>
        <span className="text-muted">sent at {formatMs(exchange.at_ms)} (run clock)</span>
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <CopyButton look="link" testId="copy-wire-curl" text={() => wireCurl(exchange)} note={KEY_NOTE}>
          copy as curl
        </CopyButton>
        {ts && py ? (
          <>
            <CopyButton look="link" testId="copy-wire-ts" text={ts} note={KEY_NOTE}>
              as TypeScript (the SDK call)
            </CopyButton>
            <CopyButton look="link" testId="copy-wire-py" text={py} note={KEY_NOTE}>
              as Python (the SDK call)
            </CopyButton>
          </>
        ) : (
          <span className="text-faint">no SDK call: {'none' in call ? call.none : ''}</span>
        )}
      </div>
      <Section title="request headers (the key replaced by [key])" testId="wire-request-headers">
        <Headers headers={request.headers} />
      </Section>
      <Section
        title={`request body as sent (${request.body.length.toLocaleString('en-US')} characters)`}
        testId="wire-request-body"
      >
        <Pre text={request.body} />
      </Section>
      {faults.map((f) => (
        <p key={f.seq} className="mt-1 text-fail" data-testid="wire-fault">
          fault rule {f.rule_id} ({f.label}) acted on this request beneath the SDK: the response below is what
          the SDK received
        </p>
      ))}
      {exchange.failure !== undefined && (
        <p className="mt-1 text-fail" data-testid="wire-failure">
          no response: {exchange.failure}
        </p>
      )}
      {response && <ResponseView response={response} />}
    </div>
  );
}

function ResponseView({ response }: { response: NonNullable<WireExchange['response']> }) {
  const [raw, setRaw] = useState(false);
  const firstByte = response.chunks[0] ? response.after_ms + response.chunks[0].after_ms : undefined;
  let at = response.after_ms;
  const reads = response.chunks.map((c) => {
    at += c.after_ms;
    return { at, after: c.after_ms, text: c.text ?? `(base64) ${c.base64 ?? ''}` };
  });
  const body = reads.map((r) => r.text).join('');
  return (
    <div data-testid="wire-response">
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <span className="font-semibold" data-testid="wire-status">
          HTTP {response.status}
        </span>
        <span className="text-muted" data-testid="wire-timing">
          headers after {formatMs(response.after_ms)}
          {firstByte !== undefined ? ` · first byte after ${formatMs(firstByte)}` : ' · no body'} ·{' '}
          {reads.length} read{reads.length === 1 ? '' : 's'} · ended {END_WORDS[response.end]}
          {response.error ? ` (${response.error})` : ''}
        </span>
      </div>
      <Section title="response headers" testId="wire-response-headers">
        <Headers headers={response.headers} />
      </Section>
      <div className="mt-1">
        <button
          type="button"
          className="text-muted underline decoration-dotted hover:text-fg"
          onClick={() => setRaw(!raw)}
          data-testid="wire-reads-toggle"
        >
          {raw ? 'show the body whole' : 'show each read with its time'}
        </button>
      </div>
      {raw ? (
        <ol
          className="mt-1 max-h-96 overflow-auto rounded border border-line bg-sunken p-1 font-mono text-2xs"
          data-testid="wire-reads"
        >
          {reads.slice(0, CHUNKS_SHOWN).map((r, i) => (
            <li key={i} className="border-b border-line py-0.5">
              <span className="text-faint">
                {formatMs(r.at)} (+{formatMs(r.after)})
              </span>{' '}
              <span className="whitespace-pre-wrap wrap-anywhere">{r.text}</span>
            </li>
          ))}
          {reads.length > CHUNKS_SHOWN && (
            <li className="text-faint">
              {(reads.length - CHUNKS_SHOWN).toLocaleString('en-US')} more reads not drawn
            </li>
          )}
        </ol>
      ) : (
        <Pre text={body} testId="wire-response-body" />
      )}
    </div>
  );
}

const END_WORDS: Record<NonNullable<WireExchange['response']>['end'], string> = {
  complete: 'complete (the server closed the body)',
  error: 'in an error (the connection failed)',
  cut: 'cut (the client stopped reading)',
};

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <details className="mt-1" data-testid={testId}>
      <summary className="cursor-pointer text-muted">{title}</summary>
      {children}
    </details>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 font-mono text-2xs">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-faint">{name}</dt>
          <dd className="wrap-anywhere">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Pre({ text, testId }: { text: string; testId?: string }) {
  return (
    <pre
      className="mt-1 max-h-64 overflow-auto rounded border border-line bg-sunken p-1 font-mono text-2xs whitespace-pre-wrap wrap-anywhere"
      data-testid={testId}
    >
      {text}
    </pre>
  );
}
