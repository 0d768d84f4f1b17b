import type { Lesson } from '../lesson';

export const specificToolErrors: Lesson = {
  slug: 'specific-tool-errors',
  title: 'Specific tool errors: a tool that hangs',
  mechanism: 'safe-executor',
  failure: 'read_file hangs for 10 minutes on every call.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'course',
    seed: 31,
    budgets: { maxRunMs: 300_000 },
    faults: { rules: [], tools: [{ id: 'slow-read', tool: 'read_file', kind: 'slow', delayMs: 600_000 }] },
  },
  timeScale: 0.06,
  text: {
    happens: 'A tool that never returns blocks the loop as surely as a silent stream. The model cannot react to an error it never receives.',
    does: 'The safe executor runs every tool under a timeout (30 s) and never throws: a timed-out call comes back as an is_error result saying which tool timed out and what to try instead, and after 3 failures the tool is disabled for the run. (Unknown tools and bad arguments always get a specific answer in this project; those have no "off".)',
    costs: 'On: three 30 s timeouts, then the model works around read_file and finishes. Off: the first read waits until the run’s 5-minute budget ends it.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'each hung read times out at 30 s with a specific error' },
    off: { reason: 'run_time_budget', complete: false, says: 'the first read hangs until the time budget ends the run' },
  },
  diverges: { turn: 2, on: 'tool_call' },
};
