import type { Lesson } from '../lesson';

export const streamIdleWatchdog: Lesson = {
  slug: 'stream-idle-watchdog',
  title: 'The stream idle watchdog (Empty)',
  mechanism: 'watchdog',
  failure: 'The first response opens its stream and then sends only keepalive pings, never any content.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 3,
    budgets: { maxRunMs: 300_000 },
    faults: {
      rules: [{ id: 'keepalive', label: 'keepalives only', when: { kind: 'requests', numbers: [1] }, action: { type: 'keepalive_only', intervalMs: 15_000, style: 'ping' } }],
      tools: [],
    },
  },
  timeScale: 0.06,
  text: {
    happens: 'The connection is healthy and the vendor keeps it alive with pings every 15 s, but no token ever comes. The SDK sees a live stream; nothing times out on its own.',
    does: 'The watchdog puts a deadline on every wait for the next content event: 120 s on the first attempt, 30 s more for each retry already spent. When it fires with nothing received yet (Empty), nothing is lost by asking again, so the loop aborts through the SDK’s signal and retries at once.',
    costs: 'On: 120 s of waiting, then a normal run. Off: the run sits on the silent stream until something outside gives up — here the run’s 5-minute time budget — and the person gets no answer at all.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the watchdog fires at 120 s, the retry answers' },
    off: { reason: 'run_time_budget', complete: false, says: 'waits on the silent stream until the time budget ends the run' },
  },
  diverges: { turn: 1, on: 'model_error' },
};
