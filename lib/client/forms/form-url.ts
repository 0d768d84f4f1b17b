import {
  BudgetsSchema,
  OUTPUT_CAP_MAX,
  PresetIdSchema,
  PromptSetRefSchema,
  TakeoverRuleSchema,
  RecoveryOverridesSchema,
  SimPolicyIdSchema,
  ToolNameSchema,
  VendorSchema,
} from '@/lib/protocol';
import { z } from 'zod';
import { FAULT_TOGGLES, TOOL_FAULT_TARGETS } from './fault-catalog';
import { DEFAULT_FORM, type PlaygroundForm } from './playground-form';

/**
 * The playground form in the address bar, so a reload or a shared link restores it. Only
 * fields that differ from the defaults are written, under short names. Never written: the API
 * key and the base URL (a key stays in memory; an endpoint may carry credentials of its own).
 * Reading is forgiving: a value that does not parse leaves that field at its default.
 */
type Codec<K extends keyof PlaygroundForm> = {
  key: K;
  param: string;
  write: (value: PlaygroundForm[K]) => string;
  read: (text: string) => PlaygroundForm[K] | undefined;
};

const text = <K extends keyof PlaygroundForm>(key: K, param: string, schema: z.ZodType<PlaygroundForm[K]>): Codec<K> => ({
  key,
  param,
  write: (value) => String(value),
  read: (raw) => parsed(schema, raw),
});

const json = <K extends keyof PlaygroundForm>(key: K, param: string, schema: z.ZodType<PlaygroundForm[K]>): Codec<K> => ({
  key,
  param,
  write: (value) => JSON.stringify(value),
  read: (raw) => {
    try {
      return parsed(schema, JSON.parse(raw));
    } catch {
      return undefined;
    }
  },
});

function parsed<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

const FAULT_IDS = new Set(FAULT_TOGGLES.map((t) => t.id));
const number = z.coerce.number().finite();

// Every field of the form but the key and the base URL (see above); the round-trip test
// fails when a field is added to the form and not here.
const CODECS: { [K in keyof PlaygroundForm]?: Codec<K> } = {
  scenario: text('scenario', 'sc', z.string().min(1).max(100)),
  task: text('task', 't', z.string().max(20_000)),
  policy: text('policy', 'pol', SimPolicyIdSchema.or(z.literal(''))),
  vendor: text('vendor', 'v', VendorSchema),
  model: text('model', 'm', z.string().max(200)),
  foreignThinking: text('foreignThinking', 'ft', z.enum(['drop', 'note'])),
  naiveTakeover: { key: 'naiveTakeover', param: 'naive', write: (v) => (v ? '1' : '0'), read: (raw) => raw === '1' },
  takeoverRulesOff: json('takeoverRulesOff', 'rulesoff', z.array(TakeoverRuleSchema).max(3)),
  preset: text('preset', 'pre', PresetIdSchema),
  overrides: json('overrides', 'rec', RecoveryOverridesSchema),
  faults: {
    key: 'faults',
    param: 'f',
    write: (ids) => ids.join(','),
    read: (raw) => raw.split(',').filter((id) => FAULT_IDS.has(id)),
  },
  toolFaultTarget: text('toolFaultTarget', 'ftool', z.enum(TOOL_FAULT_TARGETS)),
  seed: text(
    'seed',
    'seed',
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  ),
  timeScale: text('timeScale', 'ts', number.min(0.001).max(10)),
  clock: text('clock', 'clock', z.enum(['real', 'virtual'])),
  budgets: {
    key: 'budgets',
    param: 'b',
    write: (b) => [b.maxIterations, b.maxCostUsd, b.maxRunMinutes, b.maxAttempts].join('_'),
    read: (raw) => {
      const [maxIterations, maxCostUsd, maxRunMinutes, maxAttempts] = raw.split('_').map(Number);
      const budgets = { maxIterations, maxCostUsd, maxRunMinutes, maxAttempts };
      const check = BudgetsSchema.safeParse({ maxIterations, maxCostUsd, maxRunMs: Math.round((maxRunMinutes ?? NaN) * 60_000), maxAttempts });
      return check.success ? (budgets as PlaygroundForm['budgets']) : undefined;
    },
  },
  system: text('system', 'sys', z.string().max(20_000)),
  toolDescriptions: json('toolDescriptions', 'tools', z.record(ToolNameSchema, z.string().max(4_000))),
  maxOutputTokens: text('maxOutputTokens', 'out', z.coerce.number().int().min(16).max(OUTPUT_CAP_MAX)),
  promptSet: json('promptSet', 'ps', PromptSetRefSchema),
};

/** Fields the URL never carries (the API key is no form field: lib/client/endpoint-key.tsx holds it). */
export const NOT_IN_URL = ['baseUrl'] as const satisfies readonly (keyof PlaygroundForm)[];

/** The search string for a form (and the run it shows), without the leading '?'. */
export function formToSearch(form: PlaygroundForm, runId?: string): string {
  const params = new URLSearchParams();
  for (const codec of Object.values(CODECS) as Codec<keyof PlaygroundForm>[]) {
    const value = form[codec.key];
    const written = codec.write(value);
    if (written !== codec.write(DEFAULT_FORM[codec.key])) params.set(codec.param, written);
  }
  if (runId) params.set('run', runId);
  return params.toString();
}

/** The form a search string describes (defaults for anything missing or unreadable), and its run. */
export function formFromSearch(search: string | URLSearchParams): { form: PlaygroundForm; runId?: string } {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const form: PlaygroundForm = { ...DEFAULT_FORM };
  for (const codec of Object.values(CODECS) as Codec<keyof PlaygroundForm>[]) {
    const raw = params.get(codec.param);
    if (raw === null) continue;
    const value = codec.read(raw);
    if (value !== undefined) (form as Record<keyof PlaygroundForm, unknown>)[codec.key] = value;
  }
  const runId = params.get('run') ?? undefined;
  return runId && /^[\w-]{1,100}$/.test(runId) ? { form, runId } : { form };
}
