import type { Random } from '@/lib/clock';

/** What the simulated model is about to do, for a sentence or two of thinking. */
export type Intent =
  | { kind: 'list' }
  | { kind: 'read'; path: string }
  | { kind: 'search'; pattern: string }
  | { kind: 'check-before' }
  | { kind: 'edit'; path: string }
  | { kind: 'check-after' }
  | { kind: 'relist'; path?: string }
  | { kind: 'retry'; tool: string }
  | { kind: 'answer' }
  | { kind: 'give-up'; reason: string };

function lines(intent: Intent): string[] {
  switch (intent.kind) {
    case 'list':
      return [
        'I should start by seeing what is in the workspace.',
        'First, list the files to get a map of the project.',
        'Let me look at the project layout before touching anything.',
      ];
    case 'read':
      return [
        `${intent.path} looks central to the task; read it next.`,
        `I need the contents of ${intent.path} to understand the code.`,
        `Open ${intent.path} and see how it works.`,
      ];
    case 'search':
      return [
        `Search for \`${intent.pattern}\` to find every place it is used.`,
        `Where else does \`${intent.pattern}\` appear? A search will tell me.`,
        `Before editing, check the other uses of \`${intent.pattern}\`.`,
      ];
    case 'check-before':
      return [
        'Run the check to see the failure for myself.',
        'Let me run the test first so I know exactly what fails.',
        'Reproduce the failure with the check before changing code.',
      ];
    case 'edit':
      return [
        `The failure points at ${intent.path}; make the smallest fix there.`,
        `I see the bug in ${intent.path}. Apply the fix.`,
        `Edit ${intent.path} to correct the faulty line.`,
      ];
    case 'check-after':
      return [
        'Run the check again to confirm the fix.',
        'Verify the change by re-running the test.',
        'Now the check should pass; run it to be sure.',
      ];
    case 'relist':
      return [
        'That call failed. Re-list the files to check the path.',
        'The tool reported an error; let me look at the file list again.',
        'Something was off with that path. List the files before retrying.',
      ];
    case 'retry':
      return [
        `The ${intent.tool} call failed; try it once more.`,
        `Retry ${intent.tool} now that I have re-checked the workspace.`,
        `Give ${intent.tool} another attempt.`,
      ];
    case 'answer':
      return [
        'The work is done; summarize it for the user.',
        'Everything checks out. Write the final answer.',
        'Time to report what I changed and why.',
      ];
    case 'give-up':
      return [
        `I cannot make progress: ${intent.reason}. Explain what happened.`,
        `This is not working (${intent.reason}); stop and report.`,
        `Stop here and tell the user: ${intent.reason}.`,
      ];
  }
}

/** A sentence or two of thinking about the next step, varied by the seed. */
export function thinkingFor(options: { intent: Intent; random: Random }): string {
  return options.random.pick(lines(options.intent));
}
