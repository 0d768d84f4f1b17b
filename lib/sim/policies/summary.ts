import type { Policy, PolicyRequest } from '../types';

/** An auxiliary request that asks for a summary (no tools, a system prompt about summarising). */
export function isSummaryRequest(request: PolicyRequest): boolean {
  return request.tools.length === 0 && /\bsummari[sz]e\b/i.test(request.system);
}

/** How the simulated model writes down one tool call it read about: the line `summaryCalls` reads back. */
const CALL_LINE = /^- (\S+) (\{.*\}) → (ok|error): (.*)$/;
/** What every CALL_LINE holds. */
const CALL_ARROW = '} → ';

/**
 * The summary a simulated model writes for a transcript: the task, then one line per tool
 * call with the first line of what it showed (earlier summaries' lines carried over), then
 * the last thing the assistant said. Terse, concrete, and enough for the worker to carry on.
 */
export function summarizeTranscript(transcript: string): string {
  const lines = transcript.split('\n');
  const done: string[] = [];
  let task = '';
  let said = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (CALL_LINE.test(line)) {
      done.push(line);
      continue;
    }
    const taskLine = /^Task: (.*)$/.exec(line);
    if (taskLine && !task) task = taskLine[1]!;
    const user = /^\[user\] (.*)$/.exec(line);
    if (user && !task && !user[1]!.startsWith('[')) task = user[1]!;
    const assistant = /^\[assistant\] (.*)$/.exec(line);
    if (assistant) said = assistant[1]!;
    const call = /^\[call (\S+) (.*)\]$/.exec(line);
    if (call) {
      const result = findResult(lines, i + 1, call[1]!);
      done.push(`- ${call[1]} ${call[2]} → ${result.status}: ${result.first}`);
    }
  }
  return [
    ...(task ? [`Task: ${task}`] : []),
    'Done so far:',
    ...(done.length > 0 ? done : ['- nothing yet']),
    ...(said ? [`Last note: ${said}`] : []),
  ].join('\n');
}

function findResult(lines: string[], from: number, name: string): { status: 'ok' | 'error'; first: string } {
  for (let j = from; j < lines.length; j++) {
    const head = /^\[result (\S+) (ok|error)\]$/.exec(lines[j]!);
    if (head && head[1] === name) {
      const first = (lines[j + 1] ?? '').trim().slice(0, 160);
      return { status: head[2] as 'ok' | 'error', first: first || '(empty)' };
    }
  }
  return { status: 'error', first: '(no result seen)' };
}

/** Tool calls a summary in the conversation says were made, with the first line of each result. */
export function summaryCalls(
  text: string,
): Array<{ name: string; argsText: string; isError: boolean; content: string }> {
  // Every user message is read for a summary's lines at every request: one without the arrow a
  // line needs (most) is answered without splitting it into lines.
  if (!text.includes(CALL_ARROW)) return [];
  return text.split('\n').flatMap((line) => {
    const m = CALL_LINE.exec(line);
    return m ? [{ name: m[1]!, argsText: m[2]!, isError: m[3] === 'error', content: m[4]! }] : [];
  });
}

/** Wraps a policy so summary requests get a summary instead of the policy's work. */
export function withSummaries(policy: Policy): Policy {
  return (request, random) => {
    if (!isSummaryRequest(request)) return policy(request, random);
    const text = request.messages
      .flatMap((m) => m.parts)
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('\n');
    return { text: summarizeTranscript(text), toolCalls: [] };
  };
}
