'use client';

import type { Part, SentMessage } from '@/lib/protocol';
import { stubText } from '@/lib/protocol/stub-text';
import type { ContextSample } from '@/lib/run-view/context-view-state';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { findTurn } from '@/lib/client/run-view/selectors';
import type { TurnView } from '@/lib/run-view/run-view-state';
import { LongText } from '@/components/ui/long-text';
import { Pill } from '@/components/ui/pill';
import { tokens } from './context-gauge';

/**
 * "What was sent": one request's messages exactly as the vendor received them, rebuilt from
 * the request's context_sent event and the log — stubs, summaries and trim notes as sent,
 * beside what the log keeps (the full results, the messages no longer sent).
 */
export function SentView({ sample, index }: { sample: ContextSample; index: number }) {
  const turns = useRunStore((s) => s.view.turns);
  const fromLog = sample.messages.filter((m) => m.kind !== 'text' || m.origin === 'log').length;
  const head = sample.messages.length - fromLog;
  const stubs = sample.messages.reduce((n, m) => n + (m.kind === 'results' ? m.stubs.length : 0), 0);
  const dropped = sample.logMessages - fromLog;
  return (
    <div data-testid="sent-view" className="flex flex-col gap-1">
      <div className="flex flex-wrap gap-x-3 text-2xs text-muted">
        <span className="font-semibold text-fg">
          request {index + 1} · turn {sample.iteration}
        </span>
        <span className="tabular">
          ~{tokens(sample.tokensEst)} tokens
          {sample.reported !== undefined ? ` (vendor: ${tokens(sample.reported)})` : ''}
          {sample.window > 0 ? ` of ${tokens(sample.window)}` : ''}
          {sample.cached
            ? ` · prompt cache: ${tokens(sample.cached.read)} read, ${tokens(sample.cached.written)} written`
            : ''}
        </span>
        <span data-testid="sent-summary">
          log {sample.logMessages} messages → sent {sample.messages.length}: {fromLog} from the log
          {stubs > 0 ? ` (${stubs} result${stubs === 1 ? '' : 's'} as stubs)` : ''}
          {dropped > 0 ? `, ${dropped} not sent` : ''}
          {head > 0 ? `, ${head} written by compaction` : ''}
        </span>
      </div>
      <ol className="flex flex-col gap-1">
        {sample.messages.map((m, i) => (
          <li
            key={i}
            data-testid="sent-message"
            data-kind={m.kind === 'text' ? m.origin : m.kind}
            className="rounded border border-line bg-panel px-1.5 py-1 text-2xs"
          >
            <SentRow
              message={m}
              turn={m.kind === 'text' ? undefined : findTurn(turns, m.iteration)}
              seq={sample.seq}
            />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** `seq`: the request's context_sent; a fork's edit (fork_edit) shows only in requests after it. */
function SentRow({ message, turn, seq }: { message: SentMessage; turn: TurnView | undefined; seq: number }) {
  const head = (role: string, label: string, tone: 'neutral' | 'compact' = 'neutral') => (
    <div className="mb-0.5 flex items-center gap-2">
      <span className="font-mono font-semibold">{role}</span>
      <Pill tone={tone}>{label}</Pill>
      <span className="tabular text-muted">~{tokens(message.tokens)} tokens</span>
    </div>
  );
  if (message.kind === 'text') {
    const label =
      message.origin === 'summary'
        ? 'summary (replaces older messages)'
        : message.origin === 'trim_note'
          ? 'trim note'
          : message.iteration === 0
            ? 'task'
            : `turn ${message.iteration}`;
    return (
      <>
        {head(message.role, label, message.origin === 'log' ? 'neutral' : 'compact')}
        <LongText text={message.text} max={300} />
      </>
    );
  }
  if (message.kind === 'assistant') {
    const parts = turn?.result?.message?.parts ?? [];
    const edit = turn?.replyEdit && turn.replyEdit.seq < seq ? turn.replyEdit : undefined;
    const shown: readonly Part[] = edit
      ? [
          ...parts.filter((p) => p.type === 'thinking' || p.type === 'redacted_thinking'),
          { type: 'text', text: edit.after },
          ...parts.filter((p) => p.type === 'tool_call'),
        ]
      : parts;
    const text = shown
      .map((p) =>
        p.type === 'text'
          ? p.text
          : p.type === 'tool_call'
            ? `⚙ ${p.name} ${p.argsText}`
            : p.type === 'thinking'
              ? `(thinking, ${p.text.length} chars)`
              : '',
      )
      .filter(Boolean)
      .join('\n');
    return (
      <>
        {head(
          'assistant',
          `turn ${message.iteration} reply, ${edit ? `as edited by ${edit.by}` : 'as logged'}`,
        )}
        <LongText text={text || '(not in this view)'} max={200} />
      </>
    );
  }
  const stubbed = new Map(message.stubs.map((s) => [s.call_id, s]));
  return (
    <>
      {head('user', `turn ${message.iteration} tool results`)}
      {(turn?.toolCalls ?? []).map((call) => {
        const stub = call.callId ? stubbed.get(call.callId) : undefined;
        return (
          <div
            key={call.key}
            data-testid="sent-result"
            data-stub={stub ? 'yes' : 'no'}
            className={`mt-0.5 border-l-2 pl-2 ${stub ? 'border-compact' : 'border-line'}`}
          >
            <span className="font-mono text-muted">{call.tool}</span>
            {stub ? (
              <>
                <span className="ml-2 text-compact">
                  stub since turn {stub.since} · the log keeps all {tokens(stub.chars)} chars
                </span>
                <LongText text={stubText(stub.chars)} max={300} />
              </>
            ) : call.edit && call.edit.seq < seq ? (
              <>
                <span className="ml-2 text-compact">edited by {call.edit.by} before the fork went on</span>
                <LongText text={call.edit.after} max={200} />
              </>
            ) : (
              <LongText text={call.result ?? ''} max={200} />
            )}
          </div>
        );
      })}
    </>
  );
}
