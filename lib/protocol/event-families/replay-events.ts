import { z } from 'zod';
import { OffRecordingSchema } from '../replay';
import { base } from './fields';

/**
 * A replayed run's own event: the loop asked for something the cassette does not hold (another
 * recovery config, prompt or fault changed the history), written by the cassette player at
 * the request where it happened, with what differs and what the run does next.
 */
export const OffRecordingEventSchema = z.object({
  ...base,
  event: z.literal('off_recording'),
  iteration: z.number().int().min(0).optional(),
  /** The request that left the recording (the fault wrapper's count, as in `fault_injected`). */
  request_no: z.number().int().min(1),
  /** The recorded request it was compared with (its number in the recording), absent when the recording had no more requests. */
  recorded_no: z.number().int().min(1).optional(),
  /** What differs between the request and the recorded one, in words ("messages: 9 sent, 9 recorded; first difference at message 7 (user)"). */
  differs: z.string(),
  /** stop: the cassette answers with an error the loop does not retry, and the run ends; simulate: this and every later request goes to the simulated model. */
  next: OffRecordingSchema,
  /** The decision in words, as the UI shows it. */
  why: z.string(),
});
