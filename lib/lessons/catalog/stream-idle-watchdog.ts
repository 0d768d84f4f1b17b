import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { formatMs, PRESETS } from '@/lib/protocol';

const { baseMs, perRetryMs } = PRESETS.codesmith.watchdog;
const PING_MS = 15_000;
const BUDGET_MS = 480_000;

export const streamIdleWatchdog: Lesson = {
  slug: 'stream-idle-watchdog',
  title: 'The stream idle watchdog (Empty)',
  mechanism: 'watchdog',
  failure:
    'The first two responses open their streams and then send only keepalive pings, never any content.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 3,
    budgets: { maxRunMs: BUDGET_MS },
    faults: {
      rules: [
        {
          id: 'keepalive',
          label: 'keepalives only',
          when: { kind: 'requests', numbers: [1, 2] },
          action: { type: 'keepalive_only', intervalMs: PING_MS, style: 'ping' },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.04,
  text: {
    happens: `The connection is healthy and the vendor keeps it alive with pings every ${formatMs(PING_MS)}, but no token ever comes. The SDK sees a live stream; nothing times out on its own.`,
    does: `The watchdog puts a deadline on every wait for the next content event: ${DEFAULTS.watchdogBase} on the first attempt, ${DEFAULTS.watchdogPerRetry} more for each retry already spent. When it fires with nothing received yet (Empty), nothing is lost by asking again, so the loop aborts through the SDK’s signal and retries at once.`,
    costs: `On: ${formatMs(baseMs)} of waiting, a retry whose wider ${formatMs(baseMs + perRetryMs)} window also runs out, then a normal run on the third attempt. Off: the run sits on the first silent stream until something outside gives up — here the run’s ${formatMs(BUDGET_MS)} time budget — and the person gets no answer at all.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `the watchdog fires at ${formatMs(baseMs)}, then at ${formatMs(baseMs + perRetryMs)}; the third attempt answers`,
    },
    off: {
      reason: 'run_time_budget',
      complete: false,
      says: 'waits on the silent stream until the time budget ends the run',
    },
  },
  criterion: {
    says: 'the person gets an answer at all: the loop finishes and the task is done',
    lines: { complete: 'high', verdict: 'high' },
  },
  diverges: { turn: 1, on: 'model_error' },
};
