/**
 * A request the simulated vendor refuses. Validation throws it; each dialect renders it as
 * its own error body, so the SDK raises exactly the error the real vendor would cause.
 */
export class VendorRejection extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;

  constructor(options: {
    status: number;
    type: string;
    message: string;
    code?: string | null;
    param?: string | null;
  }) {
    super(options.message);
    this.name = 'VendorRejection';
    this.status = options.status;
    this.type = options.type;
    this.code = options.code ?? null;
    this.param = options.param ?? null;
  }
}

/** Shorthand for the most common refusal in both dialects. */
export function invalidRequest(
  message: string,
  extra?: { code?: string | null; param?: string | null },
): VendorRejection {
  return new VendorRejection({ status: 400, type: 'invalid_request_error', message, ...extra });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
