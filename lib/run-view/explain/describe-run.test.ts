import { describe, expect, it } from 'vitest';
import { RunEventSchema, type EventOf } from '@/lib/protocol';
import { terminateText } from './describe-run';

const end = (reason: EventOf<'terminate'>['reason'], message?: string) =>
  RunEventSchema.parse({
    run_id: 'r',
    seq: 9,
    ts: 1000,
    event: 'terminate',
    iteration: 1,
    reason,
    complete: false,
    usd_so_far: 0,
    input_tokens: 0,
    output_tokens: 0,
    message,
  }) as EventOf<'terminate'>;

describe('terminateText', () => {
  it('says a run ended once, not twice, when the message only restates the reason', () => {
    expect(terminateText(end('aborted', 'aborted by request'))).toBe('aborted on request');
    expect(
      terminateText(
        end(
          'partial_response',
          'the stream was cut after content arrived; the partial response is presented',
        ),
      ),
    ).toBe('stopped: the stream was cut after content arrived (presented, not retried)');
  });

  it('keeps a message that adds what the reason cannot know (the vendor error)', () => {
    expect(terminateText(end('retries_exhausted', '529 overloaded'))).toBe(
      'failed: retry budget exhausted — 529 overloaded',
    );
  });
});
