import { z } from 'zod';
import type { AnswerScorer, ScorerResult } from '@/lib/protocol';

/** Longest piece of the answer quoted in a scorer's reason. */
const QUOTE_CHARS = 80;

/** A scorer's id: its own, else its kind and its place among the task's scorers ("regex-2"). */
export function scorerId(scorer: AnswerScorer, index: number): string {
  return scorer.id ?? `${scorer.kind}-${index + 1}`;
}

/**
 * One check on the final answer (the model's last text), with its reason. No answer at all (the
 * run ended before the model wrote one) fails every answer scorer and says so.
 */
export function scoreAnswer(scorer: AnswerScorer, index: number, answer: string | undefined): ScorerResult {
  const id = scorerId(scorer, index);
  if (answer === undefined || answer.trim() === '')
    return { id, kind: scorer.kind, passed: false, reason: 'the run ended without a final answer to check' };
  switch (scorer.kind) {
    case 'contains': {
      const found = scorer.ignoreCase
        ? answer.toLowerCase().includes(scorer.text.toLowerCase())
        : answer.includes(scorer.text);
      return {
        id,
        kind: 'contains',
        passed: found,
        reason: `the answer ${found ? 'contains' : 'does not contain'} ${JSON.stringify(scorer.text)}${scorer.ignoreCase ? ' (case ignored)' : ''}`,
      };
    }
    case 'regex': {
      const match = new RegExp(scorer.pattern, scorer.flags).exec(answer);
      return {
        id,
        kind: 'regex',
        passed: match !== null,
        reason: match
          ? `the answer matches /${scorer.pattern}/${scorer.flags} at ${JSON.stringify(quote(match[0]))}`
          : `the answer does not match /${scorer.pattern}/${scorer.flags}`,
      };
    }
    case 'json_schema': {
      const json = jsonIn(answer);
      if (!json.ok)
        return { id, kind: 'json_schema', passed: false, reason: `the answer is not JSON: ${json.why}` };
      const schema = z.fromJSONSchema(scorer.schema as Parameters<typeof z.fromJSONSchema>[0]);
      const parsed = schema.safeParse(json.value);
      return {
        id,
        kind: 'json_schema',
        passed: parsed.success,
        reason: parsed.success
          ? 'the answer is JSON the schema accepts'
          : `the schema refuses the answer's JSON: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
              .join('; ')}`,
      };
    }
  }
}

/** The answer as JSON: the whole text, else the first ```json (or ```) fence in it. */
function jsonIn(answer: string): { ok: true; value: unknown } | { ok: false; why: string } {
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/.exec(answer);
  const candidates = [answer.trim(), ...(fence ? [fence[1]!.trim()] : [])];
  let why = '';
  for (const text of candidates) {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      why ||= error instanceof Error ? error.message : String(error);
    }
  }
  return { ok: false, why: `${why} (give it alone or in a \`\`\`json fence)` };
}

function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}
