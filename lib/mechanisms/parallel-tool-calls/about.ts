import { cap, defineAbout } from '@/lib/mechanisms/module';
import { AFTER, ID } from './defaults';

export { AFTER, ID, TOOLS_PRESETS } from './defaults';

/** Parallel tool calls, in words: its table row, glossary entry, event words and field. */
export const ABOUT = defineAbout({
  mechanism: {
    id: ID,
    label: 'Parallel tool calls',
    off: { recovery: { tools: { maxParallel: 1 } } },
    lessonSlug: 'parallel-tool-calls',
    oneLine:
      'Read-only calls of one turn run at the same time (a per-turn limit), their results returned together in call order; a call that may change the workspace always runs alone.',
  },
  after: AFTER,
  glossary: [
    {
      id: 'parallel-tool-calls',
      term: 'parallel tool calls',
      mechanism: ID,
      definition:
        'Several calls the model makes in one turn run at the same time where their tools allow it: a tool declares whether it may run beside others (the ones that only read), a per-turn limit caps how many run at once, and a tool that may change the workspace runs alone. The results go back in one message in call order (Anthropic: every tool_result in the next user message; OpenAI: one tool message per call), and one that fails leaves the others’ results as they are.',
    },
  ],
  glossaryAfter: 'dangling-call',
  events: {
    tool_batch: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'parallel-tool-calls' }),
      line: (e) => `${e.parallel ? 'parallel' : 'alone'}: ${e.why}`,
      step: (e) => ({
        kind: 'tool',
        key: ['batch', e.parallel, e.tools, e.limit],
        label: e.parallel
          ? `${e.tools.length} tool calls at once (${e.tools.join(', ')})`
          : `${e.tools[0] ?? 'a tool'} runs alone`,
      }),
      callIds: (e) => e.call_ids,
    },
  },
  fields: [
    {
      section: 'tools',
      key: 'maxParallel',
      label: 'parallel calls',
      kind: 'int',
      meaning: 'read-only calls of one turn run at once, at most this many (1 = one after another)',
    },
  ],
});
