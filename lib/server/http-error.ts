import 'server-only';

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
