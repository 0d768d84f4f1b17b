import type { Scenario } from '@/lib/tools/scenario';
import type { Policy, PolicyRequest } from '../types';

/**
 * An auxiliary request (no tools, a system prompt asking for a title) is answered with a
 * short title, as a real model would answer the loop's background title call.
 */
export function isTitleRequest(request: PolicyRequest): boolean {
  return request.tools.length === 0 && /\btitle\b/i.test(request.system);
}

/**
 * A title that names the task asked, never its result: the scenario's title for its own task,
 * the task's first words for any other. The simulated model does not judge its own work, so a
 * title like "regex gets its global flag" would claim a fix the task verdict may contradict.
 */
function titleFor(request: PolicyRequest, scenario: Scenario): string {
  const text = request.messages
    .flatMap((m) => m.parts)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');
  const task = /Task: ([\s\S]*?)(?:\n\nOutcome:|$)/.exec(text)?.[1]?.trim() ?? '';
  if (task === '' || task === scenario.task.trim()) return scenario.title;
  return task
    .split(/\s+/)
    .slice(0, 6)
    .join(' ')
    .replace(/[.,;:!?]+$/, '');
}

/** Wraps a policy so background title requests get a title instead of the policy's work. */
export function withTitles({ policy, scenario }: { policy: Policy; scenario: Scenario }): Policy {
  return (request, random) =>
    isTitleRequest(request) ? { text: titleFor(request, scenario), toolCalls: [] } : policy(request, random);
}
