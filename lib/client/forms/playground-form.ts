import type {
  ClockKind,
  PauseConfigInput,
  PresetId,
  PromptSetRef,
  RecoveryOverrides,
  ReplayConfig,
  RunConfigInput,
  ScheduledSwap,
  SimPolicyId,
  TakeoverRule,
} from '@/lib/protocol';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_COST_USD,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_RUN_MS,
} from '@/lib/protocol/config-defaults';
import { isSimulated, needsBaseUrl, vendorDefaults, type Vendor } from '@/lib/protocol/vendors';
import { answerConfig, type AnswerForm } from './answer-form';
import { faultPlanFor } from './fault-catalog';

/**
 * The playground's control panel, as data. No secret lives here: the API key is held apart
 * (lib/client/forms/endpoint-key.tsx) and handed to buildRunRequest for one request.
 */
export interface PlaygroundForm {
  scenario: string;
  /** A task of one's own; '' = the scenario's task. */
  task: string;
  /** Simulated model behaviour; '' = the scenario's own (a worker that does the task). */
  policy: SimPolicyId | '';
  vendor: Vendor;
  model: string;
  baseUrl: string;
  /** On a swap: foreign thinking dropped, or kept as a marked note. */
  foreignThinking: 'drop' | 'note';
  /** On a swap: send the history as it was, credentials included (to see the rejection). */
  naiveTakeover: boolean;
  /** Swaps planned in the config (a run's swaps made by hand are recorded here too): from turn atTurn on, another vendor. */
  swaps: ScheduledSwap[];
  /** Takeover safeguards switched off one at a time (naiveTakeover: all of them). */
  takeoverRulesOff: TakeoverRule[];
  preset: PresetId;
  overrides: RecoveryOverrides;
  faults: string[];
  /** Which tool the tool faults hit ('*' = every tool). */
  toolFaultTarget: string;
  seed: number;
  timeScale: number;
  clock: ClockKind;
  /** Every run ends: turns, spend, run time (minutes of run clock) and model request attempts. */
  budgets: { maxIterations: number; maxCostUsd: number; maxRunMinutes: number; maxAttempts: number };
  /** The system prompt; '' = the built-in one (DEFAULT_SYSTEM_PROMPT). */
  system: string;
  /** Replaced tool descriptions by tool name; a tool not here keeps its own. */
  toolDescriptions: Record<string, string>;
  /** Output cap per model call; null = the preset's. */
  maxOutputTokens: number | null;
  /** The saved prompt set the prompts were loaded from; cleared as soon as one of them is edited. */
  promptSet: PromptSetRef | null;
  /**
   * "Recorded (cassette)": the run is served from this cassette (its vendor and model are set from
   * it) and, off the recording, stops or goes on on the simulated model; null = the vendor itself.
   */
  replay: ReplayConfig | null;
  /** Breakpoints and tool approval (lib/protocol/pause.ts): the run pauses there for a person. */
  pause: PauseConfigInput | null;
  /** The final answer must match a JSON Schema, and what the simulated model does to it (lib/client/forms/answer-form.ts); null = a free-text answer. */
  answer: AnswerForm | null;
}

export const DEFAULT_FORM: PlaygroundForm = {
  scenario: 'fix-failing-test',
  task: '',
  policy: '',
  vendor: 'sim-anthropic',
  model: vendorDefaults('sim-anthropic').model,
  baseUrl: '',
  foreignThinking: 'drop',
  naiveTakeover: false,
  swaps: [],
  takeoverRulesOff: [],
  preset: 'codesmith',
  overrides: {},
  faults: [],
  toolFaultTarget: '*',
  seed: 1,
  timeScale: 0.2,
  clock: 'real',
  budgets: {
    maxIterations: DEFAULT_MAX_ITERATIONS,
    maxCostUsd: DEFAULT_MAX_COST_USD,
    maxRunMinutes: DEFAULT_MAX_RUN_MS / 60_000,
    maxAttempts: DEFAULT_MAX_ATTEMPTS,
  },
  system: '',
  toolDescriptions: {},
  maxOutputTokens: null,
  promptSet: null,
  replay: null,
  pause: null,
  answer: null,
};

/**
 * The prompt texts as they are sent and saved (trimmed; empty = the built-in or the
 * scenario's own), so a run that names a prompt set carries exactly that set's texts.
 */
export function promptTexts(form: Pick<PlaygroundForm, 'system' | 'task' | 'toolDescriptions'>): {
  system: string;
  task: string;
  toolDescriptions: Record<string, string>;
} {
  const toolDescriptions: Record<string, string> = {};
  for (const [name, text] of Object.entries(form.toolDescriptions)) {
    if (text.trim()) toolDescriptions[name] = text.trim();
  }
  return { system: form.system.trim(), task: form.task.trim(), toolDescriptions };
}

/** What each simulated model behaviour does, for the picker. */
export const POLICY_LABELS: Record<SimPolicyId, string> = {
  worker: 'does the task well',
  'repeat-on-failure': 'repeats a failing call',
  'hallucinate-tool': 'calls tools that do not exist',
  'bad-args': 'sends arguments that break the schema',
  'damaged-args':
    'sends malformed JSON arguments (trailing comma, single quotes, unquoted keys, "7" for 7, a cut-off brace)',
  'ignore-truncation': 'ignores truncation notes',
  'long-output': 'writes past the output cap',
  'rewrite-test': 'rewrites the failing test instead of the code',
  'parallel-reads': 'asks for every read it needs at once, several tool calls in one turn',
  'guess-paths': 'guesses one missing file path after another and never stops',
  'write-whole-file': 'fixes by writing the whole file back (a long tool call)',
};

/** The POST /api/runs body. Only recovery overrides are sent, never the whole preset. */
export function buildRunRequest(form: PlaygroundForm, key = ''): { config: RunConfigInput; apiKey?: string } {
  // A replay never reaches the vendor: no key goes with it.
  const apiKey = isSimulated(form.vendor) || form.replay ? '' : key.trim();
  const baseUrl = needsBaseUrl(form.vendor) ? form.baseUrl.trim() : '';
  const prompts = promptTexts(form);
  const structured = answerConfig(form.answer, isSimulated(form.vendor));
  const faults = faultPlanFor(form.faults, form.toolFaultTarget);
  const config: RunConfigInput = {
    provider: {
      vendor: form.vendor,
      model: form.model.trim(),
      ...(baseUrl ? { baseUrl } : {}),
      keySource: apiKey ? 'request' : 'env',
    },
    scenario: form.scenario,
    ...(prompts.task ? { task: prompts.task } : {}),
    ...(prompts.system ? { system: prompts.system } : {}),
    ...(Object.keys(prompts.toolDescriptions).length > 0
      ? { toolDescriptions: prompts.toolDescriptions }
      : {}),
    ...(form.promptSet ? { promptSet: form.promptSet } : {}),
    ...(form.maxOutputTokens !== null ? { maxOutputTokens: form.maxOutputTokens } : {}),
    ...(form.policy && isSimulated(form.vendor) ? { policy: form.policy } : {}),
    ...(form.replay ? { replay: form.replay } : {}),
    preset: form.preset,
    recovery: form.overrides,
    faults: structured?.answers ? { ...faults, answers: structured.answers } : faults,
    takeover: {
      foreignThinking: form.foreignThinking,
      naive: form.naiveTakeover,
      ...(form.takeoverRulesOff.length > 0 ? { rulesOff: form.takeoverRulesOff } : {}),
    },
    ...(form.swaps.length > 0 ? { swaps: form.swaps } : {}),
    ...(form.pause ? { pause: form.pause } : {}),
    ...(structured ? { answer: structured.answer } : {}),
    seed: form.seed,
    timeScale: form.timeScale,
    clock: form.clock,
    budgets: {
      maxIterations: form.budgets.maxIterations,
      maxCostUsd: form.budgets.maxCostUsd,
      maxRunMs: Math.round(form.budgets.maxRunMinutes * 60_000),
      maxAttempts: form.budgets.maxAttempts,
    },
  };
  return apiKey ? { config, apiKey } : { config };
}
