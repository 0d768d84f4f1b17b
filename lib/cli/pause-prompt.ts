import { createInterface, type Interface } from 'node:readline';
import type { EventOf, PauseControl } from '@/lib/protocol';

/** The prompt's question for a paused run: what each key does. */
export function pauseQuestion(paused: EventOf<'paused'>): string {
  return paused.call
    ? `approve ${paused.call.tool}? [y]es, [n]o (deny with a message), [e]dit the arguments > `
    : 'paused: [s]tep, [c]ontinue, [x] cancel > ';
}

/** The lines printed under the paused event's own line (print-event.ts): a call's arguments, what each answer does. */
export function pauseLines(paused: EventOf<'paused'>): string[] {
  return [
    ...(paused.call ? [`    arguments: ${JSON.stringify(paused.call.args)}`] : []),
    `    ${paused.next}`,
  ];
}

/**
 * A typed answer as the control it sends, or a problem to say before asking again. `more` is the
 * follow-up line a deny (the message) or an edit (the arguments, as JSON) needs.
 */
export function answerToControl(
  paused: EventOf<'paused'>,
  answer: string,
  more?: string,
): { control: PauseControl } | { ask: string } | { problem: string } {
  const key = answer.trim().toLowerCase();
  if (paused.call) {
    const callId = paused.call.id;
    if (key === 'y' || key === 'yes') return { control: { action: 'approve', callId, by: 'cli' } };
    if (key === 'n' || key === 'no') {
      if (more === undefined) return { ask: 'message the model receives as the tool result > ' };
      if (!more.trim())
        return { problem: 'a denial needs a message: the model receives it as the tool result' };
      return { control: { action: 'deny', callId, message: more.trim(), by: 'cli' } };
    }
    if (key === 'e' || key === 'edit') {
      if (more === undefined) return { ask: 'the arguments as a JSON object > ' };
      try {
        const args: unknown = JSON.parse(more);
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          return { problem: 'the arguments must be a JSON object, e.g. {"path": "src/a.js"}' };
        return { control: { action: 'edit', callId, args: args as Record<string, unknown>, by: 'cli' } };
      } catch (error) {
        return { problem: `the arguments are not JSON: ${(error as Error).message}` };
      }
    }
    return { problem: 'answer y (approve), n (deny) or e (edit)' };
  }
  if (key === 's' || key === 'step') return { control: { action: 'step', by: 'cli' } };
  if (key === 'c' || key === 'continue' || key === '') return { control: { action: 'continue', by: 'cli' } };
  if (key === 'x' || key === 'cancel') return { control: { action: 'cancel', by: 'cli' } };
  return { problem: 'answer s (step), c (continue) or x (cancel)' };
}

/**
 * Asks at each pause on the terminal and sends the answer to the run. Only for a terminal: in a
 * pipe nobody could answer, and the CLI refuses breakpoints and approval there (main.ts).
 */
export function createPausePrompt(send: (control: PauseControl) => void): {
  onPaused: (paused: EventOf<'paused'>) => void;
  close: () => void;
} {
  let rl: Interface | undefined;
  const ask = (question: string): Promise<string> => {
    rl ??= createInterface({ input: process.stdin, output: process.stdout });
    return new Promise((resolve) => rl!.question(question, resolve));
  };
  return {
    onPaused(paused) {
      for (const line of pauseLines(paused)) console.log(line);
      const loop = async (): Promise<void> => {
        for (;;) {
          const answer = await ask(pauseQuestion(paused));
          let result = answerToControl(paused, answer);
          if ('ask' in result) result = answerToControl(paused, answer, await ask(result.ask));
          if ('control' in result) return send(result.control);
          if ('problem' in result) console.log(`  ${result.problem}`);
        }
      };
      void loop();
    },
    close() {
      rl?.close();
    },
  };
}
