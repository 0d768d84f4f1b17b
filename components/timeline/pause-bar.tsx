'use client';

import { useEffect, useRef, useState } from 'react';
import type { ControlAction } from '@/lib/client/api/client';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { formatMs } from '@/lib/protocol/format-duration';
import { Button } from '@/components/ui/button';
import { forkableTurns } from '@/lib/client/run-view/fork-turns';
import { EditForkPanel } from './edit-fork-panel';

/** A key that does the button's job, shown on the button (the accessible name stays the button's word). */
function Key({ k }: { k: string }) {
  return (
    <kbd
      aria-hidden
      className="ml-1.5 rounded border border-current/40 px-1 font-mono text-[10px] leading-3 opacity-80"
    >
      {k}
    </kbd>
  );
}

function inField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/**
 * The pause bar: in view whenever the run is paused, in the paused event's own words (why, where,
 * what step / continue / cancel do). A tool call waiting for approval shows its arguments, to
 * approve, deny with a message the model receives, or edit first. Keys: s step, c continue,
 * x cancel; y approve. "Edit & fork" starts a fork from the last turn the run has finished, with
 * that turn's reply or the next requests' output cap changed; the paused run stays paused.
 */
export function PauseBar({ onControl }: { onControl: (action: ControlAction) => void }) {
  const pause = useRunStore((s) => s.view.pause);
  const runId = useRunStore((s) => s.view.runId);
  const forkAt = useRunStore((s) => (s.view.pause ? forkableTurns(s.view).at(-1) : undefined));
  const reply = useRunStore((s) =>
    forkAt === undefined
      ? undefined
      : s.view.turns
          .find((t) => t.iteration === forkAt)
          ?.result?.message?.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
          .join(''),
  );
  const [forking, setForking] = useState(false);
  const [denial, setDenial] = useState('');
  const [args, setArgs] = useState('');
  const [problem, setProblem] = useState<string>();
  const send = useRef(onControl);
  useEffect(() => {
    send.current = onControl;
  });
  const callId = pause?.call?.id;
  // The arguments as text: a new call's replace what was typed, a new view of the same call does not.
  const callArgs = pause?.call ? JSON.stringify(pause.call.args, null, 2) : '';
  useEffect(() => {
    setDenial('');
    setProblem(undefined);
    setArgs(callArgs);
  }, [callId, callArgs]);

  const approval = pause?.trigger === 'approval';
  useEffect(() => {
    if (!pause) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented || inField(e.target)) return;
      const action: ControlAction | undefined = approval
        ? e.key === 'y' && callId
          ? { action: 'approve', callId, by: 'playground' }
          : undefined
        : e.key === 's'
          ? { action: 'step', by: 'playground' }
          : e.key === 'c'
            ? { action: 'continue', by: 'playground' }
            : e.key === 'x'
              ? { action: 'cancel', by: 'playground' }
              : undefined;
      if (!action) return;
      e.preventDefault();
      send.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pause, approval, callId]);

  if (!pause) return null;
  const edit = () => {
    if (!callId) return;
    try {
      const parsed: unknown = JSON.parse(args);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return setProblem('the arguments must be a JSON object, e.g. {"path": "src/a.js"}');
      onControl({ action: 'edit', callId, args: parsed as Record<string, unknown>, by: 'playground' });
    } catch (error) {
      setProblem(`the arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const deny = () => {
    if (!callId) return;
    if (!denial.trim())
      return setProblem('a denial needs a message: the model receives it as the tool result');
    onControl({ action: 'deny', callId, message: denial.trim(), by: 'playground' });
  };

  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="pause-bar"
      data-trigger={pause.trigger}
      data-call-id={callId}
      className="sticky top-0 z-10 flex flex-col gap-1.5 border-b border-wait bg-panel px-3 py-2 text-xs"
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold text-wait">
          {approval ? `Waiting for approval: ${pause.call?.tool ?? 'a tool call'}` : 'Paused'}
        </span>
        <span data-testid="pause-reason">{pause.reason}</span>
        <span className="text-muted" data-testid="pause-at">
          — {pause.at}
        </span>
        <span className="text-faint">
          {pause.clock === 'held'
            ? 'run clock held'
            : `run clock running${pause.timeoutMs !== undefined ? `: denied after ${formatMs(pause.timeoutMs)}` : ''}`}
        </span>
      </div>
      <div className="text-2xs text-muted" data-testid="pause-next">
        {pause.next}
      </div>
      {approval && pause.call ? (
        <div className="flex flex-col gap-1.5">
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs text-faint">arguments (edit, then “Run edited”)</span>
            <textarea
              data-testid="approval-args"
              className="min-h-16 rounded border border-line bg-sunken p-1 font-mono text-2xs"
              value={args}
              onChange={(e) => setArgs(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs text-faint">message to the model if denied</span>
            <input
              data-testid="approval-denial"
              className="rounded border border-line bg-sunken p-1 text-xs"
              value={denial}
              onChange={(e) => setDenial(e.target.value)}
            />
          </label>
          {problem && (
            <div className="text-2xs text-fail" role="alert">
              {problem}
            </div>
          )}
          <div className="flex gap-2">
            <Button
              variant="primary"
              data-testid="approval-approve"
              title="approve (y)"
              aria-keyshortcuts="y"
              onClick={() => callId && onControl({ action: 'approve', callId, by: 'playground' })}
            >
              Approve
              <Key k="y" />
            </Button>
            <Button data-testid="approval-edit" onClick={edit}>
              Run edited
            </Button>
            <Button variant="danger" data-testid="approval-deny" onClick={deny}>
              Deny
            </Button>
            <span className="self-center text-2xs text-faint" data-testid="pause-keys">
              key: y approves as shown (outside the fields)
            </span>
          </div>
        </div>
      ) : (
        <div className="flex gap-2">
          <Button
            data-testid="pause-step"
            title="step: one event (s)"
            aria-keyshortcuts="s"
            onClick={() => onControl({ action: 'step', by: 'playground' })}
          >
            Step
            <Key k="s" />
          </Button>
          <Button
            variant="primary"
            data-testid="pause-continue"
            title="continue (c)"
            aria-keyshortcuts="c"
            onClick={() => onControl({ action: 'continue', by: 'playground' })}
          >
            Continue
            <Key k="c" />
          </Button>
          <Button
            variant="danger"
            data-testid="pause-cancel"
            title="cancel the run (x)"
            aria-keyshortcuts="x"
            onClick={() => onControl({ action: 'cancel', by: 'playground' })}
          >
            Cancel
            <Key k="x" />
          </Button>
          <span className="self-center text-2xs text-faint" data-testid="pause-keys">
            keys: s step one event · c continue · x cancel the run
          </span>
        </div>
      )}
      {runId && forkAt !== undefined && !forking && (
        <div>
          <Button
            data-testid="pause-edit-fork"
            title={`a new run from this one's state after turn ${forkAt}, with your edits; this run stays paused`}
            onClick={() => setForking(true)}
          >
            Edit &amp; fork after turn {forkAt}…
          </Button>
        </div>
      )}
      {runId && forkAt !== undefined && forking && (
        <EditForkPanel
          runId={runId}
          atTurn={forkAt}
          testId="pause-fork"
          {...(reply !== undefined
            ? {
                target: {
                  kind: 'message' as const,
                  turn: forkAt,
                  role: 'assistant' as const,
                  text: reply,
                  label: `the text of turn ${forkAt}'s reply, as the fork's model will see it`,
                },
              }
            : {})}
          onClose={() => setForking(false)}
        />
      )}
    </div>
  );
}
