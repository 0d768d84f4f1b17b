'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ForkEdit } from '@/lib/protocol/fork';
import { ApiError } from '@/lib/client/api/client';
import { useForkRun } from '@/lib/client/api/runs';
import { Button } from '@/components/ui/button';
import { INPUT } from '@/components/controls/field';

/** What the panel edits besides the output cap: a tool call's result, or a turn's reply text. */
export type EditForkTarget =
  | { kind: 'tool_result'; callId: string; tool: string; content: string; isError: boolean }
  | { kind: 'message'; turn: number; role: 'user' | 'assistant'; text: string; label: string };

/**
 * "Edit & fork": change the state at a turn — the result the model received for a tool call, a
 * reply's text, the output cap of the requests — then start a fork from there (POST /api/runs
 * with `fork.edits`). Only what was changed is sent; the fork's log records each edit (fork_edit)
 * with what stood there before, and the server says which field it could not apply.
 */
export function EditForkPanel({
  runId,
  atTurn,
  target,
  testId = 'edit-fork',
  onClose,
}: {
  runId: string;
  atTurn: number;
  target?: EditForkTarget;
  testId?: string;
  onClose: () => void;
}) {
  const router = useRouter();
  const fork = useForkRun();
  const initial = target ? (target.kind === 'tool_result' ? target.content : target.text) : '';
  const [text, setText] = useState(initial);
  const [isError, setIsError] = useState(target?.kind === 'tool_result' ? target.isError : false);
  const [maxTokens, setMaxTokens] = useState('');
  const [problem, setProblem] = useState<string>();
  const error = fork.error instanceof ApiError ? fork.error : undefined;

  const submit = () => {
    const edits: ForkEdit[] = [];
    if (target?.kind === 'tool_result' && (text !== target.content || isError !== target.isError))
      edits.push({ kind: 'tool_result', callId: target.callId, content: text, isError });
    if (target?.kind === 'message' && text !== target.text)
      edits.push({ kind: 'message', turn: target.turn, role: target.role, text });
    if (maxTokens.trim()) {
      const value = Number(maxTokens);
      if (!Number.isInteger(value)) return setProblem('max output tokens: a whole number, e.g. 2048');
      edits.push({ kind: 'params', maxOutputTokens: value });
    }
    if (edits.length === 0)
      return setProblem(
        'nothing edited: change the text or set the output cap (or use “Fork…” for a plain fork)',
      );
    setProblem(undefined);
    fork.mutate(
      { fork: { runId, atTurn, edits, by: 'playground' } },
      { onSuccess: ({ id }) => router.push(`/runs/${encodeURIComponent(id)}`) },
    );
  };

  return (
    <div
      className="mt-1 flex flex-col gap-2 rounded border border-line bg-panel p-2 text-xs"
      data-testid={testId}
      role="dialog"
      aria-label={`edit and fork at turn ${atTurn}`}
    >
      <p className="text-2xs text-muted">
        A new run starts from this run&apos;s state after turn {atTurn} with your edits, then continues live
        with this run&apos;s config and seed. Its log records each edit, before and after.
      </p>
      {target && (
        <label className="flex flex-col gap-0.5">
          <span className="text-2xs text-faint">
            {target.kind === 'tool_result'
              ? `the result the model receives for ${target.tool} (call ${target.callId})`
              : target.label}
          </span>
          <textarea
            data-testid={`${testId}-text`}
            className="min-h-24 rounded border border-line bg-sunken p-1 font-mono text-2xs"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      {target?.kind === 'tool_result' && (
        <label className="flex items-center gap-1.5 text-2xs">
          <input
            type="checkbox"
            data-testid={`${testId}-is-error`}
            checked={isError}
            onChange={(e) => setIsError(e.target.checked)}
          />
          the model receives it as an error
        </label>
      )}
      <label className="flex flex-col gap-0.5">
        <span className="text-2xs text-faint">
          max output tokens of the fork&apos;s requests (empty: unchanged)
        </span>
        <input
          data-testid={`${testId}-max-tokens`}
          className={INPUT}
          inputMode="numeric"
          value={maxTokens}
          onChange={(e) => setMaxTokens(e.target.value)}
        />
      </label>
      {(problem || error) && (
        <div
          className="rounded border border-fail/40 bg-fail-soft px-2 py-1 text-2xs text-fail"
          data-testid={`${testId}-error`}
          role="alert"
        >
          {problem ?? error?.message}
          {!problem && error?.details.map((d) => <div key={d}>{d}</div>)}
        </div>
      )}
      <div className="flex gap-2">
        <Button variant="primary" data-testid={`${testId}-submit`} disabled={fork.isPending} onClick={submit}>
          {fork.isPending ? 'Forking…' : `Fork at turn ${atTurn} with the edit`}
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </div>
  );
}
