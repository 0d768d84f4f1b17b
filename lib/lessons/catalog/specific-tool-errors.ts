import { formatMs } from '@/lib/protocol';
import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const HANG_MS = 600_000;
const BUDGET_MS = 300_000;
const { toolTimeout, failureBudget } = DEFAULTS;

export const specificToolErrors: Lesson = {
  slug: 'specific-tool-errors',
  title: 'Specific tool errors: a tool that hangs',
  mechanism: 'safe-executor',
  failure: `read_file hangs for ${formatMs(HANG_MS)} on every call.`,
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'course',
    seed: 31,
    budgets: { maxRunMs: BUDGET_MS },
    faults: { rules: [], tools: [{ id: 'slow-read', tool: 'read_file', kind: 'slow', delayMs: HANG_MS }] },
  },
  timeScale: 0.05,
  text: {
    happens:
      'A tool that never returns blocks the loop as surely as a silent stream. The model cannot react to an error it never receives.',
    does: `The safe executor runs every tool under a timeout (${toolTimeout}) and never throws: a timed-out call comes back as an is_error result saying which tool timed out and what to try instead, and after ${failureBudget} failures the tool is disabled for the run. (Unknown tools and bad arguments always get a specific answer in this project; those have no "off".)`,
    costs: `On: ${failureBudget} timeouts of ${toolTimeout} (two exact repeats in between are short-circuited), then read_file is disabled and the model finishes without it. Off: the first read waits until the run’s ${formatMs(BUDGET_MS)} budget ends it.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `each hung read times out at ${toolTimeout} with a specific error`,
    },
    off: {
      reason: 'run_time_budget',
      complete: false,
      says: 'the first read hangs until the time budget ends the run',
    },
  },
  criterion: {
    says: 'the run ends with an answer instead of hanging on a tool until its time budget runs out',
    lines: { complete: 'high', durationMs: 'low' },
  },
  diverges: { turn: 2, on: 'tool_call' },
};
