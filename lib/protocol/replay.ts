import { z } from 'zod';

/** What replaying a cassette does when the loop asks for something the recording does not hold. */
export const OffRecordingSchema = z.enum(['stop', 'simulate']);
export type OffRecording = z.infer<typeof OffRecordingSchema>;

/** A run served from a cassette instead of its vendor: which one (a stored cassette's id or a file's name) and what happens off the recording. */
export const ReplayConfigSchema = z
  .object({
    cassette: z.string().trim().min(1).max(300),
    /** stop: the run stops at the first request the recording does not hold; simulate: it goes on on the simulated model. */
    offRecording: OffRecordingSchema.default('stop'),
  })
  .strict();
export type ReplayConfig = z.infer<typeof ReplayConfigSchema>;
