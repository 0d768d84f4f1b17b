import type { z } from 'zod';
import { describeIssues } from '../describe-issues';

/**
 * A response body that does not match its endpoint's schema. Says which endpoint and which
 * field, so a server and a client that drifted apart fail loudly at the edge, not three
 * components later as `undefined`.
 */
export class ResponseShapeError extends Error {
  constructor(
    readonly endpoint: string,
    readonly problems: string[],
  ) {
    super(
      `${endpoint} answered in an unexpected shape: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3} more)` : ''}`,
    );
    this.name = 'ResponseShapeError';
  }
}

/** Parses a response body with its endpoint's schema (`endpoint` reads like `GET /api/runs`). */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown, endpoint: string): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ResponseShapeError(endpoint, describeIssues(result.error));
  return result.data;
}
