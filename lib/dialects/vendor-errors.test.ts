import { describe, expect, it } from 'vitest';
import { classifyError } from '@/lib/engine/recovery';
import { httpErrorResponse } from '@/lib/faults/error-responses';
import { apiError } from '@/lib/providers/scripted-provider';
import { probeSimRequest } from '@/lib/sim';
import { inStreamErrorRecord, vendorHttpError } from './vendor-errors';

/** The shape of a JSON value: its keys, recursively (values left out). */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return typeof value;
  return Object.fromEntries(
    Object.entries(value)
      .map(([k, v]) => [k, shape(v)])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

const ANTHROPIC_SHAPE = {
  error: { message: 'string', type: 'string' },
  request_id: 'string',
  type: 'string',
};
const OPENAI_SHAPE = { error: { code: 'string', message: 'string', param: 'object', type: 'string' } };

async function injected(dialect: 'anthropic' | 'openai', status: 529 | 404): Promise<unknown> {
  const response = httpErrorResponse({
    dialect,
    action: { type: 'http_error', status },
    requestId: 'req_1',
    model: 'm',
  });
  return JSON.parse(await response.text());
}

// Every error body the project sends for a dialect comes from lib/dialects: the fault injector,
// the strict simulated vendors, the scripted provider's SDK-shaped errors and in-stream errors.
describe('vendor error bodies: one copy per dialect', () => {
  it('Anthropic: the injected HTTP error and the simulated vendor’s refusal have the wire shape', async () => {
    expect(shape(await injected('anthropic', 529))).toEqual(ANTHROPIC_SHAPE);
    const refusal = probeSimRequest({
      vendor: 'sim-anthropic',
      body: { model: 'claude-sim-sonnet', max_tokens: 10, messages: [] },
    });
    expect(refusal?.accepted).toBe(false);
    expect(shape(refusal && !refusal.accepted ? refusal.body : undefined)).toEqual(ANTHROPIC_SHAPE);
    // The scripted provider's SDK-shaped error carries the same body, minus the request id it never had.
    expect(
      shape(
        (
          apiError({ status: 529, type: 'overloaded_error', message: 'Overloaded' }) as unknown as {
            error: unknown;
          }
        ).error,
      ),
    ).toEqual({
      error: ANTHROPIC_SHAPE.error,
      type: 'string',
    });
    const record = inStreamErrorRecord({
      dialect: 'anthropic',
      errorType: 'overloaded_error',
      framing: 'chat',
      sequenceNumber: 0,
      model: 'm',
    });
    expect(JSON.parse(record.split('data: ')[1]!)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('OpenAI dialects: the injected error, the OpenAI and DeepSeek-style refusals and the stream error share one shape', async () => {
    const body = (await injected('openai', 404)) as { error: { code: string } };
    expect(shape(body)).toEqual(OPENAI_SHAPE);
    for (const vendor of ['sim-openai', 'sim-deepseek'] as const) {
      const refusal = probeSimRequest({ vendor, body: { model: 'nope', messages: [] } });
      expect(refusal?.accepted).toBe(false);
      const refused =
        refusal && !refusal.accepted ? (refusal.body as { error: Record<string, unknown> }) : undefined;
      expect(Object.keys(refused?.error ?? {}).sort()).toEqual(['code', 'message', 'param', 'type']);
    }
    const record = inStreamErrorRecord({
      dialect: 'openai',
      errorType: 'api_error',
      framing: 'chat',
      sequenceNumber: 0,
      model: 'm',
    });
    expect(
      Object.keys((JSON.parse(record.slice('data: '.length)) as { error: object }).error).sort(),
    ).toEqual(['code', 'message', 'param', 'type']);
  });

  it('a spent quota is told apart from a rate limit by its body, and the one classifier reads it as final', async () => {
    const quota = httpErrorResponse({
      dialect: 'openai',
      action: { type: 'http_error', status: 429, quota: true },
      requestId: 'req_1',
      model: 'm',
    });
    expect(quota.status).toBe(429);
    const body = JSON.parse(await quota.text()) as { error: { type: string; code: string } };
    expect(body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    // Anthropic answers a spent credit balance with a 400, never a 429.
    const credit = httpErrorResponse({
      dialect: 'anthropic',
      action: { type: 'http_error', status: 429, quota: true },
      requestId: 'req_1',
      model: 'm',
    });
    expect(credit.status).toBe(400);
    expect(shape(JSON.parse(await credit.text()))).toEqual(ANTHROPIC_SHAPE);
    for (const dialect of ['openai', 'anthropic'] as const) {
      const error = vendorHttpError({ dialect, status: 429, model: 'm', quota: true });
      const classified = classifyError(
        Object.assign(new Error(error.message), {
          status: error.status,
          error: { type: error.type, code: error.code, message: error.message },
        }),
      );
      expect(classified.retryable, dialect).toBe(false);
    }
    expect(vendorHttpError({ dialect: 'openai', status: 429, model: 'm' }).code).toBe('rate_limit_exceeded');
  });

  it('the internal error the simulated vendor answers with is the fault injector’s 500 (the two copies used to differ)', () => {
    // lib/sim used "… Sorry about that!" while the fault table had the docs wording: one table now.
    expect(vendorHttpError({ dialect: 'openai', status: 500, model: 'm' }).message).toBe(
      'The server had an error while processing your request. Sorry about that!',
    );
    expect(vendorHttpError({ dialect: 'anthropic', status: 500, model: 'm' })).toMatchObject({
      type: 'api_error',
      message: 'Internal server error',
    });
  });
});
