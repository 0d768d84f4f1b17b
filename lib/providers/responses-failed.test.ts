import { describe, expect, it } from 'vitest';
import type { FaultRule } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * The Responses API's `response.failed` mid-stream, through the real `openai` SDK's
 * responses.stream against the strict simulated vendor: the fault wrapper ends the first
 * response with it after a few events, and the loop classifies the response's own error code.
 */
const failed = (errorType: 'rate_limit_error' | 'overloaded_error' | 'api_error'): FaultRule => ({
  id: 'failed-response',
  enabled: true,
  when: { kind: 'requests', numbers: [1] },
  action: { type: 'sse_error', errorType, afterEvents: 4, responsesEvent: 'response.failed' },
});

const run = (rule: FaultRule) =>
  runToEnd({
    provider: { vendor: 'sim-openai-responses' },
    preset: 'codesmith',
    seed: 5,
    faults: { rules: [rule], tools: [] },
  });

describe('response.failed on the Responses API', () => {
  it.each([
    ['rate_limit_error', 'rate_limit', 'vendor code rate_limit_exceeded', 'rate_limit_exceeded'],
    ['overloaded_error', 'overloaded', "vendor code server_error + text: 'overloaded'", 'server_error'],
    ['api_error', 'internal', 'vendor code server_error', 'server_error'],
  ] as const)(
    '%s: the failed response’s code is classified (%s), retried, and the run completes',
    async (errorType, category, rule, code) => {
      const events = await run(failed(errorType));
      const [error] = ofType(events, 'model_error');
      expect(ofType(events, 'model_error')).toHaveLength(1);
      expect(error).toMatchObject({
        iteration: 1,
        attempt: 1,
        category,
        rule,
        retryable: true,
        vendor_type: code,
      });
      expect(error!.status).toBeUndefined();
      // The stream had opened: the failure came mid-stream, after the response was created.
      expect(ofType(events, 'stream_open').filter((s) => s.iteration === 1).length).toBe(2);
      expect(ofType(events, 'retry_scheduled')).toMatchObject([{ attempt: 1, next_attempt: 2, category }]);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    },
  );
});
