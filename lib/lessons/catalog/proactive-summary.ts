import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

export const proactiveSummary: Lesson = {
  slug: 'proactive-summary',
  title: 'Proactive summary',
  mechanism: 'proactive-summary',
  failure: 'The history grows past the 16k window of the model during a long reading task.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 43,
  },
  timeScale: 0.5,
  text: {
    happens:
      'Without care, the first sign that the context is full is the vendor refusing a request: "prompt is too long".',
    does: `Before each request the loop sizes the copy it is about to send. Past ${DEFAULTS.proactiveThreshold} of the window it asks the model (a background call) to summarise the older history and sends the summary plus the newest messages instead.`,
    costs:
      'On: at turn 12 one summary call takes the request from 12,386 to 3,535 tokens; it costs that one summary request, and no request is refused. Off: at turn 15 the vendor refuses a request (16,250 tokens > 16,000) and the overflow waterfall has to clean up afterwards — it works here, but the error was real.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'history is summarised before the window is reached' },
    off: { reason: 'end_turn', complete: true, says: 'a request is refused as too long, then recovered' },
  },
  criterion: {
    says: 'no request is refused as too long: failed attempts and errors seen',
    lines: { failedAttempts: 'low', errorsSeen: 'low' },
  },
  diverges: { turn: 12, on: 'model_request' },
};
