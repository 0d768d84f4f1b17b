import { z } from 'zod';
import { CassetteSchema } from '../cassette';
import { RunConfigSchema, VendorSchema } from '../config';

/** A cassette as the list shows it: where its traffic came from, how much, and whether the repository ships it. */
export const CassetteSummarySchema = z.object({
  /** A stored cassette's id, or `shipped:<name>` for one the repository ships (read-only). */
  id: z.string(),
  name: z.string(),
  created_at: z.string().optional(),
  source: z.object({
    kind: z.enum(['simulated', 'recorded']),
    vendor: VendorSchema,
    model: z.string(),
    note: z.string(),
  }),
  exchanges: z.number().int(),
  bytes: z.number().int(),
  /** The run it was saved from. */
  from_run: z.string().optional(),
  shipped: z.boolean(),
  truncated: z.boolean(),
  /** The file's version (1: from before cassettes kept their config). */
  version: z.number().int(),
  /** The run config it was recorded with (absent: the cassette does not say; picking it then fills in nothing but the vendor). */
  config: RunConfigSchema.optional(),
});
export type CassetteSummary = z.infer<typeof CassetteSummarySchema>;

export const CassetteListSchema = z.object({ cassettes: z.array(CassetteSummarySchema) });
export type CassetteList = z.infer<typeof CassetteListSchema>;

export const CassetteNameSchema = z.string().trim().min(1).max(120);

/** POST /api/cassettes: a cassette file, imported under a name (its keys removed on the way in). */
export const ImportCassetteBodySchema = z
  .object({ name: CassetteNameSchema, cassette: CassetteSchema })
  .strict();
export type ImportCassetteBody = z.infer<typeof ImportCassetteBodySchema>;

/** POST /api/runs/{id}/cassette: saves the run's kept traffic (name: the run's title or id when absent). */
export const SaveRunCassetteBodySchema = z.object({ name: CassetteNameSchema.optional() }).strict();
export type SaveRunCassetteBody = z.infer<typeof SaveRunCassetteBodySchema>;
