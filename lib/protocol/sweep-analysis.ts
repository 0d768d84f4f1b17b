import { z } from 'zod';
import { parseGateAssertion } from './sweep-assert';

/**
 * What a sweep's results say beyond the table: gates a grid holds its rows to (`assert`), and
 * the paired comparison of configurations that ran on the same seeds.
 */

/** One assertion in the grid's words: checked by the gate grammar (lib/protocol/sweep-assert.ts). */
const GateExpressionSchema = z
  .string()
  .max(200)
  .superRefine((text, ctx) => {
    const parsed = parseGateAssertion(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
  });

/**
 * A grid's assertion: an expression every row must meet, or `{ that, config?, scenario?,
 * faultPlan?, vendor? }` for the rows matching each axis value given.
 */
export const SweepGridAssertSchema = z.union([
  GateExpressionSchema,
  z
    .object({
      that: GateExpressionSchema,
      config: z.string().min(1).max(100).optional(),
      scenario: z.string().min(1).max(100).optional(),
      faultPlan: z.string().min(1).max(100).optional(),
      vendor: z.string().min(1).max(100).optional(),
    })
    .strict(),
]);
export type SweepGridAssert = z.infer<typeof SweepGridAssertSchema>;

/** The rows an assertion applies to: every row for a bare expression. */
export function assertFilter(assert: SweepGridAssert): {
  that: string;
  where: { config?: string; scenario?: string; faultPlan?: string; vendor?: string };
} {
  if (typeof assert === 'string') return { that: assert, where: {} };
  const { that, ...where } = assert;
  return { that, where };
}

/** The metrics a paired comparison tests. */
export const PairedMetricSchema = z.enum(['done', 'usd', 'tokens', 'duration_ms']);
export type PairedMetric = z.infer<typeof PairedMetricSchema>;

/** One metric of a paired comparison: the test's counts, p-value, interval and finding. */
export const PairedMetricResultSchema = z.object({
  metric: PairedMetricSchema,
  /** The column's name in the table (`task done`, `$/run`, `tokens/run`, `run time`). */
  label: z.string(),
  test: z.enum(['exact McNemar', 'exact sign test']),
  /** Seeds paired for this metric (cost, tokens and time: only seeds where both loops completed). */
  n: z.number().int(),
  /** Seeds where A's value is the better, where B's is, and where they are equal. */
  a_better: z.number().int(),
  b_better: z.number().int(),
  ties: z.number().int(),
  p: z.number(),
  /** Mean of A − B (done: the difference of the two rates; usd in dollars, duration in ms). */
  mean_diff: z.number(),
  /** 95 % paired-bootstrap interval of mean_diff (seeded: the same runs give the same interval). */
  ci: z.tuple([z.number(), z.number()]),
  /** The side the test found better at p < 0.05, or null: no detectable difference at this sample size. */
  better: z.enum(['a', 'b']).nullable(),
  /** Seeds needed to detect the observed imbalance at 80 % power; null when there is none to detect. */
  seeds_needed: z.number().int().nullable(),
  /** The finding in words, written where it was decided. */
  line: z.string(),
});
export type PairedMetricResult = z.infer<typeof PairedMetricResultSchema>;

/** Two rows that differ only by configuration, compared seed by seed. */
export const SweepPairedComparisonSchema = z.object({
  /** The two rows' keys and configuration labels. */
  a: z.string(),
  b: z.string(),
  a_label: z.string(),
  b_label: z.string(),
  /** What the two rows share: scenario, fault plan, target (and model, prompt set) in words. */
  context: z.string(),
  /** Seeds both rows ran. */
  seeds: z.number().int(),
  metrics: z.array(PairedMetricResultSchema),
});
export type SweepPairedComparison = z.infer<typeof SweepPairedComparisonSchema>;
