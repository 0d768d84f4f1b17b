import { z } from 'zod';
import {
  BudgetsSchema,
  ClockKindSchema,
  PromptSetRefSchema,
  ScheduledSwapSchema,
  SimPolicyIdSchema,
  TakeoverRuleSchema,
  ToolNameSchema,
  VendorSchema,
} from '@/lib/protocol/config';
import { MAX_SCHEDULED_SWAPS } from '@/lib/protocol/config-defaults';
import { OUTPUT_CAP_MAX, PresetIdSchema, RecoveryOverridesSchema } from '@/lib/protocol/recovery';
import { ReplayConfigSchema } from '@/lib/protocol/replay';
import { PauseConfigSchema } from '@/lib/protocol/pause';
import { AnswerFaultKindSchema } from '@/lib/protocol/faults';
import { FAULT_TOGGLES, TOOL_FAULT_TARGETS } from './fault-catalog';
import { FORM_PARAMS, type UrlField } from './form-url';
import { DEFAULT_FORM, type PlaygroundForm } from './playground-form';

/**
 * The playground form read back from the address (written by form-url.ts). Reading is
 * forgiving: a value that does not parse leaves that field at its default. Each value is
 * checked with its schema, on the server (app/page.tsx reads the address and hands the page
 * its form), so the browser's first load carries no schema.
 */
type Reader<K extends UrlField> = (raw: string) => PlaygroundForm[K] | undefined;

const text =
  <K extends UrlField>(schema: z.ZodType<PlaygroundForm[K]>): Reader<K> =>
  (raw) =>
    parsed(schema, raw);

const json =
  <K extends UrlField>(schema: z.ZodType<PlaygroundForm[K]>): Reader<K> =>
  (raw) => {
    try {
      return parsed(schema, JSON.parse(raw));
    } catch {
      return undefined;
    }
  };

function parsed<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

const FAULT_IDS = new Set(FAULT_TOGGLES.map((t) => t.id));
const number = z.coerce.number().finite();

// One reader for every field the address carries (the type holds it to FORM_PARAMS).
const READERS: { [K in UrlField]: Reader<K> } = {
  scenario: text(z.string().min(1).max(100)),
  task: text(z.string().max(20_000)),
  policy: text(SimPolicyIdSchema.or(z.literal(''))),
  vendor: text(VendorSchema),
  model: text(z.string().max(200)),
  foreignThinking: text(z.enum(['drop', 'note'])),
  naiveTakeover: (raw) => raw === '1',
  takeoverRulesOff: json(z.array(TakeoverRuleSchema).max(4)),
  preset: text(PresetIdSchema),
  overrides: json(RecoveryOverridesSchema),
  faults: (raw) => raw.split(',').filter((id) => FAULT_IDS.has(id)),
  toolFaultTarget: text(z.enum(TOOL_FAULT_TARGETS)),
  seed: text(
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  ),
  timeScale: text(number.min(0.001).max(10)),
  clock: text(ClockKindSchema),
  budgets: (raw) => {
    const [maxIterations, maxCostUsd, maxRunMinutes, maxAttempts] = raw.split('_').map(Number);
    const budgets = { maxIterations, maxCostUsd, maxRunMinutes, maxAttempts };
    const check = BudgetsSchema.safeParse({
      maxIterations,
      maxCostUsd,
      maxRunMs: Math.round((maxRunMinutes ?? NaN) * 60_000),
      maxAttempts,
    });
    return check.success ? (budgets as PlaygroundForm['budgets']) : undefined;
  },
  system: text(z.string().max(20_000)),
  toolDescriptions: json(z.record(ToolNameSchema, z.string().max(4_000))),
  maxOutputTokens: text(z.coerce.number().int().min(16).max(OUTPUT_CAP_MAX)),
  promptSet: json(PromptSetRefSchema),
  swaps: json(z.array(ScheduledSwapSchema).max(MAX_SCHEDULED_SWAPS)),
  replay: json(ReplayConfigSchema),
  pause: json(PauseConfigSchema),
  answer: json(
    z
      .object({
        name: z.string().max(64),
        schemaText: z.string().max(20_000),
        strict: z.boolean(),
        faults: z
          .array(
            z.object({ kind: AnswerFaultKindSchema, times: z.number().int().min(1).max(1000).nullable() }),
          )
          .max(4),
      })
      .nullable(),
  ),
};

/** The form a search string describes (defaults for anything missing or unreadable), and its run. */
export function formFromSearch(search: string | URLSearchParams): { form: PlaygroundForm; runId?: string } {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const form: PlaygroundForm = { ...DEFAULT_FORM };
  for (const key of Object.keys(FORM_PARAMS) as UrlField[]) {
    const raw = params.get(FORM_PARAMS[key].param);
    if (raw === null) continue;
    const value = (READERS[key] as Reader<UrlField>)(raw);
    if (value !== undefined) (form as Record<UrlField, unknown>)[key] = value;
  }
  const runId = params.get('run') ?? undefined;
  return runId && /^[\w-]{1,100}$/.test(runId) ? { form, runId } : { form };
}
