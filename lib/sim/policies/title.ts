import type { Scenario } from '@/lib/tools/scenario';
import type { Policy, PolicyRequest } from '../types';

/**
 * An auxiliary request (no tools, a system prompt asking for a title) is answered with a
 * short title, as a real model would answer the loop's background title call.
 */
export function isTitleRequest(request: PolicyRequest): boolean {
  return request.tools.length === 0 && /\btitle\b/i.test(request.system);
}

/** Wraps a policy so background title requests get a title instead of the policy's work. */
export function withTitles({ policy, scenario }: { policy: Policy; scenario: Scenario }): Policy {
  return (request, random) => (isTitleRequest(request) ? { text: scenario.hints.title ?? scenario.title, toolCalls: [] } : policy(request, random));
}
