import type { Message } from '@/lib/protocol';

export const SUMMARY_SYSTEM =
  'You compact the working memory of a coding agent. Summarize the conversation below so the agent can carry on without it: ' +
  'the task, each tool call it made and what that showed, what it found, and what is left to do. Be brief and concrete; keep file names, numbers and error lines exactly.';

/** Longest stretch of one tool result quoted to the summarizer: enough to summarise, bounded so the summary request fits. */
const RESULT_CHARS = 1_500;

/**
 * The summary call's one user message: the conversation to compact as a plain transcript.
 * A transcript rather than the messages themselves, because a request that carries tool
 * calls must also offer tools, and a summary call offers none.
 */
export function summaryTranscript(options: {
  previousSummary?: string;
  messages: readonly Message[];
}): string {
  const lines: string[] = [];
  if (options.previousSummary) lines.push('Previous summary:', options.previousSummary, '');
  lines.push('Conversation:');
  const names = new Map<string, string>();
  for (const message of options.messages) {
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
          lines.push(`[${message.role}] ${part.text}`);
          break;
        case 'tool_call':
          names.set(part.id, part.name);
          lines.push(`[call ${part.name} ${part.argsText}]`);
          break;
        case 'tool_result': {
          const body =
            part.content.length > RESULT_CHARS
              ? `${part.content.slice(0, RESULT_CHARS)}\n… (${part.content.length - RESULT_CHARS} more characters)`
              : part.content;
          lines.push(`[result ${names.get(part.callId) ?? 'tool'} ${part.isError ? 'error' : 'ok'}]`, body);
          break;
        }
        default:
          break;
      }
    }
  }
  return lines.join('\n');
}
