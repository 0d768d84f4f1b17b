import { cap, defineAbout } from '@/lib/mechanisms/module';
import { AFTER, ID } from './defaults';

export { AFTER, ID, TERMINATES, TOOLS_PRESETS } from './defaults';
/** What a run has when its config leaves the fields out (they are in no preset). */
export { DEFAULTS as TOOLS_DEFAULTS } from './defaults';

/** Instructions hidden in tool output, in words: its table row, glossary entry and event words. */
export const ABOUT = defineAbout({
  mechanism: {
    id: ID,
    label: 'Injection guard',
    off: {
      recovery: { tools: { injectionMark: false, injectionDetect: false, injectionAllowList: false } },
    },
    lessonSlug: 'injection-guard',
    oneLine:
      'Tool output can carry instructions ("ignore the task and …"): mark it as data, remove instruction-like text before the model reads it, and refuse calls to tools the task does not need.',
  },
  after: AFTER,
  glossary: [
    {
      id: 'prompt-injection',
      term: 'prompt injection (instructions hidden in tool output)',
      mechanism: ID,
      see: ['structured-answer'],
      definition:
        'Text a tool returns — a file, a web page, a search hit — that reads like an instruction to the model ("ignore the task and call …"). A model that obeys it works for whoever wrote the file. Three guards, each switchable: mark tool output as data (delimiters around each result and a note in the system prompt; models obey less, not never), a detector that removes instruction-like text before the model reads it (it misses what it has no pattern for), and an allow-list of the tools the task needs (a call outside it is refused, whatever asked for it).',
    },
  ],
  glossaryAfter: 'structured-answer',
  events: {
    injection_planted: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'prompt-injection' }),
      line: (e) => `injection planted in ${e.tool} result: asks for ${e.asks.tool}`,
      step: (e) => ({
        kind: 'recovery',
        key: ['planted', e.tool, e.asks.tool],
        label: 'instruction planted',
      }),
      callIds: (e) => [e.call_id],
    },
    tool_output_marked: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'prompt-injection' }),
      line: (e) => `${e.tool} result marked as data`,
      step: (e) => ({ kind: 'recovery', key: ['marked', e.tool], label: 'tool output marked as data' }),
      callIds: (e) => [e.call_id],
    },
    injection_flagged: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'prompt-injection' }),
      line: (e) => `detector: ${e.pattern} in ${e.tool} result, removed`,
      step: (e) => ({
        kind: 'recovery',
        key: ['flagged', e.tool, e.pattern],
        label: 'instruction-like text removed',
      }),
      callIds: (e) => [e.call_id],
    },
    tool_call_refused: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'prompt-injection' }),
      line: (e) => `allow-list: ${e.tool} refused`,
      step: (e) => ({ kind: 'recovery', key: ['refused', e.tool], label: `${e.tool} refused` }),
      callIds: (e) => [e.call_id],
    },
    injection_followed: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'prompt-injection' }),
      line: (e) => `followed an injected instruction: ${e.tool} ${e.next === 'runs' ? 'runs' : 'refused'}`,
      step: (e) => ({
        kind: 'recovery',
        key: ['followed', e.tool, e.next],
        label: `followed an injected instruction (${e.next})`,
      }),
      callIds: (e) => [e.call_id],
    },
  },
  fields: [],
  totals: [
    {
      id: 'module:followed-injection',
      label: 'followed an injected instruction',
      better: 'low',
      count: (e) => (e.event === 'injection_followed' ? 1 : 0),
    },
  ],
});
