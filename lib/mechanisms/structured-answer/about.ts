import { cap, defineAbout } from '@/lib/mechanisms/module';
import { AFTER, ID } from './defaults';

export { AFTER, ID, TERMINATES, TOOLS_PRESETS } from './defaults';
/** What a run has when its config leaves the fields out (they are in no preset). */
export { DEFAULTS as TOOLS_DEFAULTS } from './defaults';

const OUTCOME = {
  valid: 'answer matches the schema',
  repaired: 'answer repaired to match the schema',
  invalid: 'answer does not match the schema',
  refused: 'the model refused to answer',
} as const;

/** Structured answers, in words: its table row, glossary entry and event words. */
export const ABOUT = defineAbout({
  mechanism: {
    id: ID,
    label: 'Structured answers',
    off: { recovery: { tools: { answerRepair: false, answerReasks: 0 } } },
    lessonSlug: 'structured-answer',
    oneLine:
      'When the answer must match a JSON Schema, an answer that does not goes through jsonrepair and coercion, then back to the model with the validation errors named, a bounded number of times.',
  },
  after: AFTER,
  glossary: [
    {
      id: 'structured-answer',
      term: 'structured answer (JSON Schema answer)',
      mechanism: ID,
      see: ['arg-repair'],
      definition:
        'A final answer that must match a JSON Schema, sent the way each vendor supports it: Anthropic has the model call a tool whose input is the answer, OpenAI Chat takes `response_format` `json_schema`, the Responses API `text.format`. Models still answer in a markdown fence, leave a required field out, send a number as a string, run past the output cap or refuse. The repair ladder tries jsonrepair (the JSON’s syntax) and coercion (a value’s type where nothing is lost), then asks the model again naming each validation error, a bounded number of times; a refusal and a cut answer are not repaired.',
    },
  ],
  glossaryAfter: 'parallel-tool-calls',
  events: {
    structured_answer: {
      explain: (e) => ({ why: `${cap(e.why)}.`, term: 'structured-answer' }),
      line: (e) => `answer: ${e.why}`,
      step: (e) => ({
        kind: 'recovery',
        key: ['answer', e.outcome, e.next, e.ladder.map((r) => [r.rung, r.ok])],
        label: `${OUTCOME[e.outcome]}${e.next === 'reask' ? ': asked again' : ''}`,
      }),
    },
  },
  fields: [],
});
