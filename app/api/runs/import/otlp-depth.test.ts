import { describe, expect, it } from 'vitest';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';

/**
 * An OTLP trace whose attribute values nest hundreds of levels deep (a 17 kB body) used to
 * overflow the stack inside the recursive OTLP schema and answer 500. Every JSON the server
 * parses goes through the same depth limit: the import answers 400 saying where.
 */
useTempDataDir('loop-lab-otlp-depth-');

const deepArray = (depth: number): unknown => {
  let value: unknown = { stringValue: 'x' };
  for (let i = 0; i < depth; i += 1) value = { arrayValue: { values: [value] } };
  return value;
};
const deepKvlist = (depth: number): unknown => {
  let value: unknown = { intValue: '1' };
  for (let i = 0; i < depth; i += 1) value = { kvlistValue: { values: [{ key: 'k', value }] } };
  return value;
};

function trace({
  spanAttribute,
  resourceAttribute,
  eventAttribute,
}: {
  spanAttribute?: unknown;
  resourceAttribute?: unknown;
  eventAttribute?: unknown;
}): string {
  const span = {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    name: 'chat m',
    kind: 3,
    startTimeUnixNano: '1760000000000000000',
    endTimeUnixNano: '1760000001000000000',
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      ...(spanAttribute ? [{ key: 'deep', value: spanAttribute }] : []),
    ],
    ...(eventAttribute
      ? {
          events: [
            {
              timeUnixNano: '1760000000500000000',
              name: 'e',
              attributes: [{ key: 'deep', value: eventAttribute }],
            },
          ],
        }
      : {}),
  };
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: resourceAttribute ? [{ key: 'deep', value: resourceAttribute }] : [] },
        scopeSpans: [{ spans: [span] }],
      },
    ],
  });
}

async function importOtlp(body: string): Promise<{ status: number; error: string; details: string[] }> {
  const response = await dispatch({ method: 'POST', path: '/api/runs/import', body });
  const answer = (await response.json()) as { error: string; details?: string[] };
  return { status: response.status, error: answer.error, details: answer.details ?? [] };
}

describe('an OTLP import nested too deep', () => {
  it.each([
    ['an arrayValue 600 deep in a span attribute', trace({ spanAttribute: deepArray(600) })],
    ['a kvlistValue 600 deep in a resource attribute', trace({ resourceAttribute: deepKvlist(600) })],
    ['an arrayValue 600 deep in a span event attribute', trace({ eventAttribute: deepArray(600) })],
  ])('answers 400 naming where, for %s', async (_what, body) => {
    expect(body.length).toBeLessThan(40_000);
    const { status, error, details } = await importOtlp(body);
    expect(status).toBe(400);
    expect(error).toBe('The OTLP trace could not be imported');
    expect(details[0]).toMatch(/^resourceSpans\.0\..*nested deeper than 80 levels; flatten it$/);
  });

  it('still imports a trace whose attributes nest a few levels, as real traces do', async () => {
    const { status, details } = await importOtlp(trace({ spanAttribute: deepArray(5) }));
    expect(details.join('\n')).not.toMatch(/nested deeper/);
    expect(status).toBeLessThan(500);
  });
});
