import type { Random } from '@/lib/clock';
import type { Scenario } from '@/lib/tools/scenario';
import { countTokens } from '@/lib/tokens/count-tokens';
import type { Policy } from '../types';
import { answerTurn } from './history';

/** Long answers before the policy closes with a short one (continuations must end). */
const MAX_LONG = 3;
/** How far past the cap the intended answer runs, so the cap is always what stops it. */
const OVERSHOOT = 200;

const OPENERS = ['Looking at', 'Considering', 'Turning to', 'Going back over', 'Reviewing'];
const MIDDLES = [
  'the structure is straightforward but the details matter',
  'each function has a single responsibility worth keeping',
  'the error handling deserves a closer look',
  'the tests describe the intended behaviour precisely',
  'the naming makes the data flow easy to follow',
  'there is an edge case around empty input',
];
const CLOSERS = [
  'so it is worth writing down.',
  'which shapes the next section.',
  'and that leads to the following point.',
  'as the notes below explain.',
];

function sentence(random: Random, subject: string): string {
  return `${random.pick(OPENERS)} ${subject}, ${random.pick(MIDDLES)}, ${random.pick(CLOSERS)} `;
}

/**
 * Writes an exhaustive report longer than the request's output cap, so the response stops
 * on max_tokens / length. After MAX_LONG such answers it closes with a short summary.
 */
export function createLongOutputPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  const subjects = [...Object.keys(scenario.files), 'the task', 'the overall design'];
  return (request, random) => {
    const longAnswers = request.messages.filter(
      (m) =>
        m.role === 'assistant' &&
        m.parts.some((p) => p.type === 'text' && countTokens(p.text) > 100) &&
        !m.parts.some((p) => p.type === 'tool_call'),
    ).length;
    const thinking = request.thinking
      ? 'The user deserves a complete, detailed write-up. Cover every file.'
      : undefined;
    if (longAnswers >= MAX_LONG)
      return answerTurn({ text: `To wrap up: ${scenario.hints.summary}`, thinking });
    const target = request.maxTokens + OVERSHOOT;
    const parts: string[] = [`# Detailed report\n\n`];
    let tokens = countTokens(parts[0]!);
    for (let n = 0; tokens < target; n++) {
      const piece = n % 8 === 7 ? '\n\n' : sentence(random, random.pick(subjects));
      parts.push(piece);
      tokens += countTokens(piece);
    }
    return answerTurn({ text: parts.join(''), thinking });
  };
}
