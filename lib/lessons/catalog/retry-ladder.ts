import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { retries, backoffSteps, backoffCap, jitter } = DEFAULTS;

export const retryLadder: Lesson = {
  slug: 'retry-ladder',
  title: 'The retry ladder and backoff',
  mechanism: 'retry',
  failure: 'The vendor answers the first two requests with 529 Overloaded.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 7,
    faults: {
      rules: [
        {
          id: 'overloaded',
          label: 'overloaded ×2',
          when: { kind: 'requests', numbers: [1, 2] },
          action: { type: 'http_error', status: 529 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'A busy vendor refuses a request that would have been fine a moment later. 529 Overloaded says nothing is wrong with the request itself: it is worth sending again.',
    does: `The classifier calls the error transient, so the loop schedules a retry and waits on the run clock: ${backoffSteps[0]}, then ${backoffSteps[1]} (doubling up to ${backoffCap}, ${jitter} jitter so many clients do not return in step — here 0.9 s and 2.1 s). CodeSmith allows ${retries} retries per call; the third request gets through and the run carries on as if nothing happened.`,
    costs:
      'On: 3.0 s of waiting and two failed requests, which bill nothing. Off: the first overload is the end of the run — the person sees an error for a fault that two retries would have outlasted.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'two retries, then the task is finished' },
    off: { reason: 'model_error', complete: false, says: 'the first 529 ends the run with an error' },
  },
  criterion: {
    says: 'the person gets the work done: the loop finishes, the task is done, and no error reaches them',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 1, on: 'retry_scheduled' },
};
