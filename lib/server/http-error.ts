import 'server-only';
import type { ErrorBody } from '@/lib/protocol/http';

/**
 * The one error a route handler throws on purpose: a status and a message a person can act
 * on, plus optional detail lines (one per bad field or bad line).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly details: string[] | undefined;

  constructor(status: number, message: string, details?: string[]) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.details = details;
  }
}

/** A room's fair-share limit a visitor has reached: 429, naming the limit, with Retry-After when waiting helps. */
export class RoomLimitError extends HttpError {
  readonly limit: NonNullable<ErrorBody['limit']>;

  constructor(message: string, limit: NonNullable<ErrorBody['limit']>) {
    super(429, message);
    this.name = 'RoomLimitError';
    this.limit = limit;
  }
}
