import { describe, expect, it } from 'vitest';
import { findContradictions } from '@/lib/run-view/explain/why-claims';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { PRESETS, type RunConfigInput } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

const VENDOR_400 = {
  'sim-anthropic':
    /messages\.\d+: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_\w+\. Each `tool_use` block must have a corresponding `tool_result` block in the next message\./,
  'sim-openai':
    /An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: call_\w+/,
} as const;

/** The first read runs, but the turn is cut before its result comes back. */
function interrupted(
  vendor: keyof typeof VENDOR_400,
  repair: boolean,
): Omit<RunConfigInput, 'provider'> & { provider: RunConfigInput['provider'] } {
  return {
    provider: { vendor },
    preset: 'codesmith',
    seed: 3,
    recovery: { tools: { repairInterrupted: repair } },
    faults: { rules: [], tools: [{ id: 'cut', tool: 'read_file', kind: 'interrupt', times: 1 }] },
  };
}

/** A turn cut between a tool call and its result, through the real SDKs and the strict simulated vendors. */
describe.each(['sim-anthropic', 'sim-openai'] as const)(
  'interrupted tool calls through the loop on %s',
  (vendor) => {
    it('with the repair on, the dangling call gets a synthetic error result and the run finishes the task', async () => {
      const bodies: string[] = [];
      const events = await runToEnd(interrupted(vendor, true), {
        onVendorRequest: ({ body }) => bodies.push(body),
      });
      const cut = ofType(events, 'tool_call').filter((c) => c.status === 'interrupted');
      expect(cut.map((c) => c.tool)).toEqual(['read_file']);
      const [dangling] = ofType(events, 'dangling_calls');
      expect(dangling).toMatchObject({
        repaired: true,
        next: 'synthetic_results',
        calls: [{ call_id: cut[0]!.call_id, tool: 'read_file' }],
      });
      // The next request answers the call with the synthetic error, in the place the dialect requires.
      const next = bodies.find((b) => b.includes('was interrupted before it returned a result'));
      expect(next).toBeDefined();
      expect(ofType(events, 'model_error')).toEqual([]);
      expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
      expect(ofType(events, 'task_verdict')[0]!.verdict).toBe('done');
      expect(findContradictions(events)).toEqual([]);
      const view = foldRawEvents(initialRunViewState(), events);
      const turn = view.turns.find((t) => t.callMarks?.some((m) => m.mechanism === 'interrupted-repair'))!;
      expect(turn.callMarks).toMatchObject([
        { mechanism: 'interrupted-repair', pill: { text: 'no result: answered with a synthetic error' } },
      ]);
      expect(turn.toolCalls.find((c) => c.callId === cut[0]!.call_id)!.status).toBe('interrupted');
    });

    it('with the repair off, the next request carries the call unanswered and the strict vendor answers 400', async () => {
      const events = await runToEnd(interrupted(vendor, false));
      const [dangling] = ofType(events, 'dangling_calls');
      expect(dangling).toMatchObject({ repaired: false, next: 'sent_unanswered' });
      // CodeSmith's exclusion rule resends the 400 within its budget; each resend carries the same history and is refused.
      const errors = ofType(events, 'model_error');
      expect(errors).toHaveLength(PRESETS.codesmith.retry.maxRetries + 1);
      expect(new Set(errors.map((e) => e.message)).size).toBe(1);
      expect(errors[0]).toMatchObject({ status: 400, retryable: false });
      expect(errors[0]!.message).toMatch(VENDOR_400[vendor]);
      expect(errors[0]!.message).toContain(dangling!.calls[0]!.call_id);
      expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
      expect(findContradictions(events)).toEqual([]);
    });
  },
);
