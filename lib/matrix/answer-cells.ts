import { findContradictions } from '@/lib/run-view/explain/why-claims';
import {
  resolveRecovery,
  type AnswerFaultKind,
  type EventOf,
  type PresetId,
  type RecoveryOverrides,
  type RunEvent,
  type TerminateReason,
} from '@/lib/protocol';
import { LESSONS } from '@/lib/lessons';
import { MODULE_TOOLS_DEFAULTS as DEFAULTS } from '@/lib/mechanisms/modules/about';
import type { MatrixVendor } from './baseline';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { runGuarded } from './run-guarded';

/**
 * Structured answers in the matrix: a run whose answer must match a schema, each answer fault
 * (fault plan `answers`, once) × vendor × setting (every preset, and CodeSmith with the repair
 * off, and with repair and re-asks off). The promise is read from the effective config: the
 * outcome of each structured_answer event in order and how the run ends; a truncated answer is
 * the output cap's to handle, so its promise is that no cut answer is accepted. Every cell: no
 * hang, and no why line its own later events contradict. Where a vendor guarantees against a
 * fault (a forced Anthropic tool's input is always JSON) the cell is not applicable.
 */

/** The schema the structured-answer lesson asks for: the matrix holds the same answer to every fault. */
const ANSWER_SCHEMA = LESSONS.find((l) => l.slug === 'structured-answer')!.config.answer!.schema;

export const ANSWER_FAULTS: readonly AnswerFaultKind[] = [
  'invalid_json',
  'breaks_schema',
  'truncated',
  'refusal',
];
export const ANSWER_GUARD_MS = 60_000;
const SEED = 2;

export interface AnswerSetting {
  label: string;
  preset: PresetId;
  overrides: RecoveryOverrides;
}

export const ANSWER_SETTINGS: readonly AnswerSetting[] = [
  ...MATRIX_PRESETS.map((preset) => ({ label: preset, preset, overrides: {} })),
  { label: 'codesmith, repair off', preset: 'codesmith', overrides: { tools: { answerRepair: false } } },
  {
    label: 'codesmith, structured answers off',
    preset: 'codesmith',
    overrides: { tools: { answerRepair: false, answerReasks: 0 } },
  },
];

type Step = `${EventOf<'structured_answer'>['outcome']}/${EventOf<'structured_answer'>['next']}`;

export interface AnswerCell {
  vendor: MatrixVendor;
  fault: AnswerFaultKind;
  setting: AnswerSetting;
  /** The structured_answer steps in order and the ending; for a truncated answer, only that no cut answer is accepted. */
  promise: { steps: Step[]; reason: TerminateReason } | { noCutAccepted: true } | { notApplicable: string };
}

function promiseFor(
  vendor: MatrixVendor,
  fault: AnswerFaultKind,
  setting: AnswerSetting,
): AnswerCell['promise'] {
  const { tools } = resolveRecovery(setting.preset, setting.overrides);
  const repair = tools.answerRepair ?? DEFAULTS.answerRepair;
  const reasks = tools.answerReasks ?? DEFAULTS.answerReasks;
  switch (fault) {
    case 'refusal':
      return { steps: ['refused/run_ends'], reason: 'refusal' };
    case 'truncated':
      return { noCutAccepted: true };
    case 'invalid_json':
      if (vendor === 'sim-anthropic')
        return { notApplicable: 'a forced Anthropic tool’s input is always valid JSON' };
      if (repair) return { steps: ['repaired/accept'], reason: 'end_turn' };
      return reasks > 0
        ? { steps: ['invalid/reask', 'valid/accept'], reason: 'end_turn' }
        : { steps: ['invalid/run_ends'], reason: 'invalid_answer' };
    case 'breaks_schema':
      // Coercion mends the number; the missing field needs the model.
      return reasks > 0
        ? { steps: ['invalid/reask', 'valid/accept'], reason: 'end_turn' }
        : { steps: ['invalid/run_ends'], reason: 'invalid_answer' };
  }
}

export function answerCells(): AnswerCell[] {
  return MATRIX_VENDORS.flatMap((vendor) =>
    ANSWER_FAULTS.flatMap((fault) =>
      ANSWER_SETTINGS.map((setting) => ({
        vendor,
        fault,
        setting,
        promise: promiseFor(vendor, fault, setting),
      })),
    ),
  );
}

export interface AnswerResult {
  cell: AnswerCell;
  failures: string[];
  wallMs: number;
}

/** Runs one cell through the real runtime and says where it broke its promise (empty: kept). */
export async function runAnswerCell(cell: AnswerCell, options: { guardMs: number }): Promise<AnswerResult> {
  const run = await runGuarded({
    guardMs: options.guardMs,
    runId: `matrix-answer-${cell.vendor}-${cell.fault}-${cell.setting.label}`,
    config: {
      provider: { vendor: cell.vendor },
      preset: cell.setting.preset,
      recovery: cell.setting.overrides,
      seed: SEED,
      answer: { schema: ANSWER_SCHEMA },
      // Truncated: a cap the answer outgrows, well above what a tool call takes.
      ...(cell.fault === 'truncated' ? { maxOutputTokens: 400 } : {}),
      faults: { rules: [], tools: [], answers: [{ id: 'answer', kind: cell.fault, times: 1 }] },
    },
  });
  return { cell, failures: answerFailures(cell, run.events, run.hung), wallMs: run.wallMs };
}

function answerFailures(cell: AnswerCell, events: RunEvent[], hung: boolean): string[] {
  if (hung) return ['hung: the run did not end within its guard'];
  const failures: string[] = [];
  const answers = events.filter((e): e is EventOf<'structured_answer'> => e.event === 'structured_answer');
  const end = events.at(-1);
  if (end?.event !== 'terminate') return ['the log does not end with terminate'];
  const { promise } = cell;
  if ('steps' in promise) {
    const steps = answers.map((a) => `${a.outcome}/${a.next}`);
    if (JSON.stringify(steps) !== JSON.stringify(promise.steps))
      failures.push(
        `structured_answer steps ${JSON.stringify(steps)}, promised ${JSON.stringify(promise.steps)}`,
      );
    if (end.reason !== promise.reason) failures.push(`ended ${end.reason}, promised ${promise.reason}`);
  } else if ('noCutAccepted' in promise) {
    for (const a of answers) {
      const call = events.findLast(
        (e): e is EventOf<'llm_call'> => e.event === 'llm_call' && !e.background && e.seq < a.seq,
      );
      if (a.next === 'accept' && call?.stop_reason === 'max_tokens')
        failures.push(`structured_answer #${a.seq} accepted an answer cut at the output cap`);
    }
  }
  for (const c of findContradictions(events))
    failures.push(`why line of ${c.event} #${c.seq} says ${c.claim}`);
  return failures;
}
