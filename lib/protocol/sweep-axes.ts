import { z } from 'zod';
import { isSimulated, StrategyRefSchema, VendorSchema } from './config';
import { FaultPlanSchema } from './faults';
import { RecoveryMechanismIdSchema } from './mechanism-id';
import { PresetIdSchema, RecoveryOverridesSchema } from './recovery';
import { RetryPolicySchema } from './retry-policy';

/**
 * The axes of a sweep grid (lib/protocol/sweeps.ts): the values each axis takes, one schema an
 * axis — configurations, retry policies, fault plans, mechanisms switched off, seeds, simulated
 * vendors, real endpoints, task folders and model ids.
 */

/** An id on an axis of the grid: it names a row and a CSV cell. */
export const SweepAxisIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'use letters, digits, "-", "_" or "." (it names a row and a CSV cell)',
  );

/** A recovery configuration: a preset, optionally with overrides on top. */
export const SweepConfigurationSchema = z
  .object({
    id: SweepAxisIdSchema,
    label: z.string().max(200).optional(),
    preset: PresetIdSchema,
    recovery: RecoveryOverridesSchema.default({}),
    /**
     * A strategy of one's own on top of the preset (the sweep CLI only): the file, pinned by its
     * sha256 when the sweep starts (lib/runtime/load-strategy.ts).
     */
    strategy: StrategyRefSchema.partial({ sha256: true }).optional(),
  })
  .strict();
export type SweepConfiguration = z.infer<typeof SweepConfigurationSchema>;

/**
 * A retry policy the policy axis compares: a preset's own (`preset`: its policy, whatever the
 * configuration's preset), or one written out (`policy`). Each configuration runs once with each,
 * as a row of its own (`<configuration>-policy-<id>`).
 */
export const SweepPolicySchema = z
  .object({
    id: SweepAxisIdSchema,
    label: z.string().max(200).optional(),
    preset: PresetIdSchema.optional(),
    policy: RetryPolicySchema.optional(),
  })
  .strict()
  .refine((p) => (p.preset === undefined) !== (p.policy === undefined), {
    message:
      'give a policy either as a preset name ("preset": "s11") or written out ("policy": {…}), not both',
  });
export type SweepPolicy = z.infer<typeof SweepPolicySchema>;

export const SweepFaultPlanSchema = z
  .object({
    id: SweepAxisIdSchema,
    label: z.string().max(200).optional(),
    plan: FaultPlanSchema.default({ rules: [], tools: [] }),
  })
  .strict();
export type SweepFaultPlan = z.infer<typeof SweepFaultPlanSchema>;

/** Mechanisms the on/off axis can switch off: the recovery ones of lib/mechanisms/mechanisms.ts. */
export const SweepMechanismSchema = RecoveryMechanismIdSchema;
export type SweepMechanism = z.infer<typeof SweepMechanismSchema>;

/** Seeds as an inclusive range (`{from: 1, to: 200}`) or a list. */
export const SweepSeedsSchema = z.union([
  z
    .object({
      from: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
      to: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    })
    .strict()
    .refine((r) => r.to >= r.from, 'seeds.to must be at least seeds.from'),
  z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    )
    .min(1)
    .max(100_000),
]);

/** The simulated vendors a sweep runs on the virtual clock (the sweep form's choice, a subset of the vendor table). */
export const SweepVendorSchema = z.enum(['sim-anthropic', 'sim-openai', 'sim-openai-responses']);
export type SweepVendor = z.infer<typeof SweepVendorSchema>;

/** The real vendors a sweep endpoint may speak (their runs use the real clock): every real row of the vendor table. */
export const SweepEndpointVendorSchema = VendorSchema.refine((vendor) => !isSimulated(vendor), {
  error: 'a sweep endpoint is a real vendor; simulated vendors go in vendors',
});

/**
 * A real endpoint as a sweep target: a vendor, optionally at a base URL (the same rules as a
 * run's: a URL the server's environment does not name needs a key sent with the sweep, and a
 * loopback or private address must be allowed by the environment), and its limits. One limiter
 * per endpoint holds every run of the sweep to them, on every worker.
 */
export const SweepEndpointSchema = z
  .object({
    id: SweepAxisIdSchema,
    vendor: SweepEndpointVendorSchema,
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2000)
      .optional(),
    /** Where its key comes from: the server's environment, or `apiKeys[id]` sent with the sweep (kept in memory, never stored). */
    keySource: z.enum(['env', 'request']).default('env'),
    /** Requests a minute to this endpoint, over every run and worker of the sweep; absent: no limit. */
    requestsPerMin: z.number().int().min(1).max(100_000).optional(),
    /** Tokens a minute (each request's prompt estimate plus its max output, as OpenAI counts them); absent: no limit. */
    tokensPerMin: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict();
export type SweepEndpoint = z.infer<typeof SweepEndpointSchema>;

/**
 * A task folder on the scenario axis (the sweep CLI only; lib/tools/tasks): its path (relative to
 * the directory the CLI runs in), or the path with the sha256 of its files and its id, which the
 * sweep CLI pins as the sweep starts. A list of them is a dataset.
 */
export const SweepTaskSchema = z.union([
  z
    .string()
    .min(1)
    .max(500)
    .transform((dir): { dir: string; sha256?: string; id?: string } => ({ dir })),
  z
    .object({
      dir: z.string().min(1).max(500),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'the sha256 of the folder: 64 lower-case hex digits')
        .optional(),
      id: z.string().min(1).max(64).optional(),
    })
    .strict(),
]);
export type SweepTask = z.infer<typeof SweepTaskSchema>;

/** A model id for the model axis (a simulated vendor's own, or what a real endpoint names). */
export const SweepModelIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/, 'a model id: letters, digits and . _ : / @ -');
