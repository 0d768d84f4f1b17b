import type { Part } from '@/lib/protocol';
import type { ToolCallView, TurnView } from '@/lib/run-view/run-view-state';
import { LongText } from '@/components/ui/long-text';

import { Pill } from '@/components/ui/pill';
import { marksOf } from '@/lib/run-view/fold-turn-events';
import { forkableTurns } from '@/lib/client/run-view/fork-turns';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { Button } from '@/components/ui/button';
import { NestedRuns } from './nested-runs';
import { ToolCallItem } from './tool-call-item';
import { EditForkPanel } from './edit-fork-panel';
import { useState } from 'react';

/** A turn's text longer than this is shown to here, with a toggle for the rest. */
const PROSE_MAX = 8_000;

type Shown =
  | { type: 'thinking'; text: string; credential?: { vendor: string; model: string }; redacted?: boolean }
  | { type: 'text'; text: string }
  | { type: 'tool'; id?: string; name: string; argsText: string };

/** The turn's content: the kept message once it exists, the streaming blocks before. */
function shownParts(turn: TurnView): Shown[] {
  const message = turn.result?.message;
  if (message) {
    return message.parts.flatMap((p: Part): Shown[] => {
      switch (p.type) {
        case 'text':
          return [{ type: 'text', text: p.text }];
        case 'thinking':
          return [{ type: 'thinking', text: p.text, credential: p.credential }];
        case 'redacted_thinking':
          return [
            { type: 'thinking', text: '', credential: { vendor: p.vendor, model: p.model }, redacted: true },
          ];
        case 'tool_call':
          return [{ type: 'tool', id: p.id, name: p.name, argsText: p.argsText }];
        case 'tool_result':
          return [];
      }
    });
  }
  const fg = turn.attempts.filter((a) => !a.background);
  const latest =
    turn.result?.attempt !== undefined
      ? fg.find((a) => a.attempt === turn.result!.attempt)
      : fg[fg.length - 1];
  if (!latest) return [];
  return latest.blocks.map((b): Shown =>
    b.kind === 'tool_args'
      ? { type: 'tool', id: b.callId, name: b.tool ?? 'tool', argsText: b.text }
      : b.kind === 'thinking'
        ? { type: 'thinking', text: b.text }
        : { type: 'text', text: b.text },
  );
}

export function TurnContent({
  turn,
  onSelectTool,
}: {
  turn: TurnView;
  onSelectTool: (call: ToolCallView) => void;
}) {
  const parts = shownParts(turn);
  // A turn a fork may start after: its tool results and its reply can be edited, then forked.
  const forkAt = useRunStore((s) =>
    forkableTurns(s.view).includes(turn.iteration) ? turn.iteration : undefined,
  );
  const runId = useRunStore((s) => s.view.runId);
  const [editingReply, setEditingReply] = useState(false);
  const used = new Set<string>();
  const findCall = (id: string | undefined, name: string): ToolCallView | undefined => {
    const call = turn.toolCalls.find(
      (c) => !used.has(c.key) && (id !== undefined ? c.callId === id : c.tool === name),
    );
    if (call) used.add(call.key);
    return call;
  };
  // The loops a call started (sub-agents), drawn under the call.
  const nestedOf = (callId: string | undefined) => (turn.nested ?? []).filter((n) => n.callId === callId);
  const items = parts.map((p, i) => {
    if (p.type === 'thinking') {
      return (
        <details key={i} className="rounded border border-line px-2 py-1 text-muted">
          <summary className="flex flex-wrap items-center gap-2 text-2xs">
            <span>
              ▸ thinking{p.redacted ? ' (redacted)' : ''} · {p.text.length.toLocaleString('en-US')} chars
            </span>
            {p.credential ? (
              <Pill
                tone="takeover"
                title="an opaque credential that only travels back to the vendor and model that minted it"
              >
                signed: {p.credential.vendor} / {p.credential.model}
              </Pill>
            ) : (
              <Pill>no credential</Pill>
            )}
          </summary>
          <LongText text={p.text || '(no portable text)'} max={2000} className="mt-1" />
        </details>
      );
    }
    if (p.type === 'text') {
      // A long-output turn's text runs to hundreds of kB: drawn in full, its layout alone held the page for a frame.
      return p.text.length > PROSE_MAX ? (
        <LongText key={i} text={p.text} max={PROSE_MAX} prose />
      ) : (
        <p key={i} className="text-xs leading-5 whitespace-pre-wrap">
          {p.text}
        </p>
      );
    }
    const call = findCall(p.id, p.name);
    return (
      <div key={i} className="flex flex-col gap-1">
        <ToolCallItem
          name={p.name}
          argsText={p.argsText}
          call={call}
          marks={marksOf(turn, call?.callId)}
          onSelect={call ? () => onSelectTool(call) : undefined}
          {...(forkAt !== undefined ? { forkAt } : {})}
        />
        <NestedRuns runs={nestedOf(call?.callId ?? p.id)} />
      </div>
    );
  });
  const leftover = turn.toolCalls.filter((c) => !used.has(c.key));
  return (
    <div className="flex flex-col gap-1.5">
      {items}
      {leftover.map((c) => (
        <div key={c.key} className="flex flex-col gap-1">
          <ToolCallItem
            name={c.tool}
            argsText={typeof c.args === 'string' ? c.args : JSON.stringify(c.args)}
            call={c}
            marks={marksOf(turn, c.callId)}
            onSelect={() => onSelectTool(c)}
            {...(forkAt !== undefined ? { forkAt } : {})}
          />
          <NestedRuns runs={nestedOf(c.callId)} />
        </div>
      ))}
      {turn.replyEdit && (
        <div data-testid="edited-reply" className="border-l-2 border-wait pl-2">
          <div className="flex items-center gap-2 text-2xs">
            <Pill tone="compact" title={turn.replyEdit.next}>
              reply edited by {turn.replyEdit.by}
            </Pill>
            <span className="text-muted">{turn.replyEdit.next}</span>
          </div>
          <LongText text={turn.replyEdit.after} max={400} />
        </div>
      )}
      {forkAt !== undefined && runId && turn.result?.message && (
        <div>
          {editingReply ? (
            <EditForkPanel
              runId={runId}
              atTurn={forkAt}
              testId="edit-fork-reply"
              target={{
                kind: 'message',
                turn: turn.iteration,
                role: 'assistant',
                text: turn.replyEdit?.after ?? replyText(turn),
                label: `the text of turn ${turn.iteration}'s reply, as the model will see it (its tool calls stay)`,
              }}
              onClose={() => setEditingReply(false)}
            />
          ) : (
            <Button
              data-testid="edit-fork-reply-open"
              title={`edit this turn's reply or the fork's output cap, then fork after turn ${forkAt}`}
              onClick={() => setEditingReply(true)}
            >
              Edit turn {forkAt} &amp; fork…
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The text of the turn's kept reply (its text parts), as a message edit replaces it. */
function replyText(turn: TurnView): string {
  return (turn.result?.message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
}
