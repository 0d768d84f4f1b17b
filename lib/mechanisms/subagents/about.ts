import { cap, defineAbout } from '@/lib/mechanisms/module';
import { AFTER, ID } from './defaults';

export { AFTER, ID, TOOLS_PRESETS } from './defaults';
/** What a run has when its config leaves the fields out (they are in no preset). */
export { DEFAULTS as TOOLS_DEFAULTS } from './defaults';

const OUTCOME = {
  answered: 'answered',
  budget_spent: 'spent its budget',
  looped: 'was stopped looping',
  vendor_failed: 'lost its vendor',
  stopped: 'stopped',
} as const;

const NEXT = {
  accept: 'its answer is the result',
  retry: 'run again',
  fallback: "run again on the run's model",
  give_up: 'the parent gives up on it',
} as const;

/** Sub-agents, in words: its table row, glossary entry, event words and fields. */
export const ABOUT = defineAbout({
  mechanism: {
    id: ID,
    label: 'Sub-agents',
    off: { recovery: { tools: { subagentSharesAttempts: true, subagentRetries: 0 } } },
    lessonSlug: 'subagents',
    oneLine:
      "A delegate tool starts a child loop with its own task, turn budget and attempt account: a child's retries do not spend the parent's budget, and when a child fails the parent falls back, retries it or gives up, saying why.",
  },
  after: AFTER,
  glossary: [
    {
      id: 'subagent',
      term: 'sub-agent (delegate)',
      mechanism: ID,
      see: ['retry-amplification'],
      definition:
        "A loop the agent starts from a tool call (`delegate`) to do one part of its task: the same engine with its own task, the same tools on a runner of its own, a turn budget and an attempt account of its own. Its answer is the call's result. Children can spend their budget, loop, lose their vendor, or all hit one rate limit at once, each retrying on its own account (retries multiplied across the tree). The parent decides what to do about a child that failed — run it again on its own model, retry it, or give up — and says why.",
    },
  ],
  glossaryAfter: 'structured-answer',
  events: {
    subagent_start: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'subagent' }),
      line: (e) => `sub-agent ${e.child} (try ${e.try}) starts on ${e.model}: ${e.task}`,
      step: (e) => ({
        kind: 'tool',
        key: ['subagent', e.child, e.try, e.task, e.shares_attempts],
        label: `sub-agent ${e.child} starts`,
      }),
      callIds: (e) => [e.call_id],
    },
    subagent_event: {
      explain: (e) => ({ why: `Sub-agent ${e.child} wrote ${e.inner.event}.`, term: 'subagent' }),
      line: (e) => `  [${e.child}] ${e.inner.event}`,
      step: (e) => ({
        kind: 'tool',
        key: ['subagent-event', e.child, e.try, e.inner.event],
        label: `${e.child}: ${e.inner.event}`,
      }),
      callIds: (e) => [e.call_id],
    },
    subagent_end: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'subagent' }),
      line: (e) => `sub-agent ${e.child} ${OUTCOME[e.outcome]}: ${e.why}`,
      step: (e) => ({
        kind: 'recovery',
        key: ['subagent-end', e.child, e.outcome, e.next],
        label: `sub-agent ${e.child} ${OUTCOME[e.outcome]}: ${NEXT[e.next]}`,
      }),
      callIds: (e) => [e.call_id],
    },
  },
  fields: [
    {
      section: 'tools',
      key: 'delegate',
      label: 'delegate tool',
      kind: 'bool',
      meaning: 'offer the model a delegate tool: each call starts a sub-agent (a child loop)',
    },
    {
      section: 'tools',
      key: 'subagentTurns',
      label: 'sub-agent turns',
      kind: 'int',
      meaning: "a sub-agent's turn budget",
    },
    {
      section: 'tools',
      key: 'subagentSharesAttempts',
      label: 'sub-agents share attempts',
      kind: 'bool',
      meaning: "a sub-agent's model requests count in the run's own attempt budget instead of one of its own",
    },
    {
      section: 'tools',
      key: 'subagentRetries',
      label: 'sub-agent retries',
      kind: 'int',
      meaning: 'times a sub-agent whose vendor failed it runs again',
    },
  ],
});
