import { cap, defineAbout } from '@/lib/mechanisms/module';
import { AFTER, ID } from './defaults';

export { AFTER, ID, TOOLS_PRESETS } from './defaults';

/** The interrupted tool-call repair, in words: its table row, glossary entry, event words and field. */
export const ABOUT = defineAbout({
  mechanism: {
    id: ID,
    label: 'Interrupted tool-call repair',
    off: { recovery: { tools: { repairInterrupted: false } } },
    lessonSlug: 'interrupted-tool-call',
    oneLine:
      'A turn cut between a tool call and its result leaves the call dangling; each one gets a synthetic error result before the next request, so the strict vendors do not answer 400.',
  },
  after: AFTER,
  glossary: [
    {
      id: 'dangling-call',
      term: 'dangling tool call (interrupted call)',
      mechanism: ID,
      see: ['tool-error'],
      definition:
        'A tool call whose result never came back: the turn was cut between the call and its result (an interrupt, a crash, a tool that never returned). The strict vendors reject a history holding one with a 400 (Anthropic: tool_use ids without tool_result blocks immediately after; OpenAI: an assistant message with tool_calls not followed by a tool message for each id). The repair answers each with a synthetic error result before the next request.',
    },
  ],
  glossaryAfter: 'arg-repair',
  events: {
    dangling_calls: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'dangling-call' }),
      line: (e) => `dangling: ${e.why}`,
      step: (e) => ({
        kind: 'recovery',
        key: ['dangling', e.repaired, e.calls.map((c) => c.tool)],
        label: `interrupted tool call${e.calls.length === 1 ? '' : 's'} (${e.calls.map((c) => c.tool).join(', ')}): ${e.repaired ? 'synthetic error results' : 'sent unanswered'}`,
      }),
      callIds: (e) => e.calls.map((c) => c.call_id),
    },
  },
  fields: [
    {
      section: 'tools',
      key: 'repairInterrupted',
      label: 'repair interrupted calls',
      kind: 'bool',
      meaning:
        'a call whose result never came back gets a synthetic error result (off: a strict vendor answers 400)',
    },
  ],
});
