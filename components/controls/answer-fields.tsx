'use client';

import { useRef } from 'react';
import {
  ANSWER_FAULT_KINDS,
  ANSWER_TEMPLATES,
  answerFromTemplate,
  answerProblems,
  FAULT_TIMES,
  type AnswerForm,
} from '@/lib/client/forms/answer-form';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { typedNumber } from '@/lib/client/forms/number-checks';
import { isSimulated } from '@/lib/protocol/vendors';
import { Field, INPUT } from './field';

/**
 * Structured answers: the run must end with an answer that matches a JSON Schema (the config's
 * `answer`), asked for the way each vendor takes it; the structured-answer mechanism repairs or
 * asks again (its settings are in Recovery parameters). On a simulated vendor, answer faults make
 * the model spoil its answers on purpose. Set before a run; fixed while it runs.
 */
export function AnswerFields({
  form,
  onChange,
  disabled,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  disabled: boolean;
}) {
  const answer = form.answer;
  // Switched off and on again, the schema typed before comes back.
  const last = useRef<AnswerForm | null>(answer);
  if (answer) last.current = answer;
  const set = (patch: Partial<AnswerForm>) => answer && onChange({ answer: { ...answer, ...patch } });
  const problems = answerProblems(answer);
  const of = (field: string) => problems.filter((p) => p.field === field);
  const simulated = isSimulated(form.vendor);

  return (
    <div className="flex flex-col gap-2" data-testid="answer-fields">
      <label className="flex items-start gap-1.5 text-xs">
        <input
          type="checkbox"
          data-testid="answer-on"
          className="mt-0.5"
          checked={answer !== null}
          disabled={disabled}
          onChange={(e) =>
            onChange({ answer: e.target.checked ? (last.current ?? answerFromTemplate('fix-report')) : null })
          }
        />
        <span className="flex flex-col">
          <span>the answer must match a JSON Schema</span>
          <span className="text-2xs text-faint">
            Sent as each vendor takes it: Anthropic a forced tool, OpenAI Chat <code>response_format</code>,
            Responses <code>text.format</code>. An answer that does not match is repaired or asked for again
            (Recovery parameters: answer repair, answer re-asks); spent, the run ends{' '}
            <code>invalid_answer</code>.
          </span>
        </span>
      </label>
      {disabled && answer && (
        <p className="text-2xs text-faint">set when the run started: change it for the next run</p>
      )}
      {answer && (
        <>
          <Field label="start from" hint="replaces the name and the schema below">
            <select
              data-testid="answer-template"
              className={INPUT}
              value=""
              disabled={disabled}
              onChange={(e) => {
                if (e.target.value) onChange({ answer: answerFromTemplate(e.target.value, answer.faults) });
              }}
            >
              <option value="">a ready-made schema…</option>
              {ANSWER_TEMPLATES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.label}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="name"
            testId="answer-name"
            error={of('answer-name')[0]?.message}
            hint="the format’s name (on Anthropic, the answer tool’s)"
          >
            <input
              data-testid="answer-name"
              className={INPUT}
              value={answer.name}
              disabled={disabled}
              aria-invalid={of('answer-name').length > 0}
              onChange={(e) => set({ name: e.target.value })}
            />
          </Field>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">JSON Schema of the answer</span>
            <textarea
              data-testid="answer-schema"
              className={`${INPUT} leading-4`}
              // As tall as the schema (4 to 16 lines), so what to fix shows just beneath it.
              rows={Math.min(16, Math.max(4, answer.schemaText.split('\n').length + 1))}
              spellCheck={false}
              value={answer.schemaText}
              disabled={disabled}
              aria-invalid={of('answer-schema').length > 0}
              aria-describedby="answer-schema-problems"
              onChange={(e) => set({ schemaText: e.target.value })}
            />
            <span className="text-2xs text-faint">
              The root is an object (<code>{'"type": "object"'}</code>): every vendor takes an object as the
              answer.
            </span>
          </label>
          {of('answer-schema').length > 0 && (
            <ul
              id="answer-schema-problems"
              data-testid="answer-schema-error"
              className="flex list-disc flex-col gap-0.5 pl-4 text-2xs text-fail"
            >
              {of('answer-schema').map((p) => (
                <li key={p.message} className="break-words">
                  the schema {p.message}
                </li>
              ))}
            </ul>
          )}
          <label className="flex items-start gap-1.5 text-xs">
            <input
              type="checkbox"
              data-testid="answer-strict"
              className="mt-0.5"
              checked={answer.strict}
              disabled={disabled}
              onChange={(e) => set({ strict: e.target.checked })}
            />
            <span className="flex flex-col">
              <span>strict mode (OpenAI)</span>
              <span className="text-2xs text-faint">
                The vendor guarantees the schema; it then needs every object closed (
                <code>{'"additionalProperties": false'}</code>) and every property required. Anthropic has no
                such mode.
              </span>
            </span>
          </label>
          <fieldset className="flex flex-col gap-1" disabled={disabled || !simulated}>
            <legend className="text-2xs font-medium text-muted">answer faults (simulated model)</legend>
            <span className="text-2xs text-faint">
              {simulated
                ? 'The simulated model spoils its answers on purpose, each ticked fault for its first answers, in this order. Each is a fault_injected event in the log.'
                : 'Only a simulated vendor can be made to spoil its answers: these are not sent to a real one.'}
            </span>
            {ANSWER_FAULT_KINDS.map(({ kind, label, does }) => {
              const fault = answer.faults.find((f) => f.kind === kind);
              const timesError = of(`answer-fault-${kind}-times`)[0]?.message;
              const update = (next: AnswerForm['faults'][number] | null) => {
                const others = answer.faults.filter((f) => f.kind !== kind);
                const faults = next ? [...others, next] : others;
                // Kept in the panel's order: the first fault with answers left strikes first.
                const order = ANSWER_FAULT_KINDS.map((k) => k.kind);
                set({ faults: faults.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)) });
              };
              return (
                <div key={kind} className="flex flex-col gap-0.5">
                  <label className="flex items-start gap-1.5 text-xs">
                    <input
                      type="checkbox"
                      className="mt-0.5"
                      data-testid={`answer-fault-${kind}`}
                      checked={fault !== undefined}
                      onChange={(e) => update(e.target.checked ? { kind, times: 1 } : null)}
                    />
                    <span className="flex flex-col">
                      <span className={fault ? 'text-wait' : ''}>{label}</span>
                      <span className="text-[10px] leading-3 text-faint">{does}</span>
                    </span>
                  </label>
                  {fault && (
                    <div className="flex items-center gap-1.5 pl-5 text-2xs text-muted">
                      <span>hits</span>
                      <select
                        data-testid={`answer-fault-${kind}-scope`}
                        aria-label={`which answers “${label}” hits`}
                        className="rounded border border-line bg-panel px-1 py-0.5 text-2xs text-fg"
                        value={fault.times === null ? 'every' : 'first'}
                        onChange={(e) => update({ kind, times: e.target.value === 'every' ? null : 1 })}
                      >
                        <option value="first">the first</option>
                        <option value="every">every answer</option>
                      </select>
                      {fault.times !== null && (
                        <>
                          <input
                            data-testid={`answer-fault-${kind}-times`}
                            aria-label={`how many answers “${label}” hits`}
                            type="number"
                            min={FAULT_TIMES.min}
                            max={FAULT_TIMES.max}
                            step={1}
                            className="w-14 rounded border border-line bg-panel px-1 py-0.5 font-mono text-2xs text-fg"
                            aria-invalid={timesError !== undefined}
                            value={Number.isNaN(fault.times) ? '' : fault.times}
                            onChange={(e) => update({ kind, times: typedNumber(e.target.value) })}
                          />
                          <span>{fault.times === 1 ? 'answer' : 'answers'}</span>
                        </>
                      )}
                    </div>
                  )}
                  {timesError && <span className="pl-5 text-2xs text-fail">{timesError}</span>}
                </div>
              );
            })}
          </fieldset>
        </>
      )}
    </div>
  );
}
