import { answerProblems } from './answer-form';
import { numberProblems, type NumberProblem } from './number-checks';
import { approvalProblems } from './pause-form';
import type { PlaygroundForm } from './playground-form';

/** Every field of the form the server would refuse now, in the panel's order: Run waits until there are none. */
export function formProblems(form: PlaygroundForm): NumberProblem[] {
  return [...numberProblems(form), ...approvalProblems(form.pause), ...answerProblems(form.answer)];
}
