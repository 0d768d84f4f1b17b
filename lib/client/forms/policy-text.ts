import { RetryPolicySchema, type RetryPolicy } from '@/lib/protocol/retry-policy';

/**
 * The playground's retry-policy editor: its text as a policy, or what to fix. Empty text is no
 * policy of its own (the preset's runs).
 */
export function parsePolicyText(text: string): { policy?: RetryPolicy; error?: string } {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${(error as Error).message}` };
  }
  const parsed = RetryPolicySchema.safeParse(value);
  if (parsed.success) return { policy: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { error: `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
}
