import type { z } from 'zod';

/** Turns zod issues into lines a person can act on: `provider.vendor: expected one of …`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    return `${path}: ${issue.message}`;
  });
}
