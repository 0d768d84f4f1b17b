import { describe, expect, it } from 'vitest';
import type { ModelRequest, StreamPart } from '@/lib/providers/types';
import {
  apiError,
  textResponse,
  toolCallResponse,
  type ScriptedResponse,
} from '@/lib/providers/scripted-provider';
import { ofType, terminateOf } from '@/lib/testing/run-to-end';
import { runScripted } from '@/lib/testing/run-scripted';

/** Answers the background title call; foreground requests from `turns`, in order. */
function script(turns: ScriptedResponse[]) {
  let n = 0;
  return (request: ModelRequest): ScriptedResponse => {
    if (request.tools.length === 0) return textResponse({ text: 'A title' });
    const next = turns[n++];
    if (!next) throw new Error(`no turn scripted for foreground request ${n}`);
    return next;
  };
}

const tooLong = apiError({
  status: 400,
  type: 'invalid_request_error',
  message: 'prompt is too long: 40000 tokens > 32000 maximum',
});
const readReadme = toolCallResponse({
  calls: [{ id: 'toolu_1', name: 'read_file', argsText: '{"path":"README.md"}' }],
});
const foreground = (requests: ModelRequest[]) => requests.filter((r) => r.tools.length > 0);

/** Overflow signals the vendor gives after the stream opened, through the loop on the scripted provider. */
describe('overflow inside the stream', () => {
  it('an in-stream "prompt is too long" after some content is not a Partial: it goes to the waterfall and the step is resent', async () => {
    const opened: StreamPart[] = [
      { type: 'response-start', id: 'msg_x', model: 'scripted', inputTokens: 100 },
      { type: 'text-delta', index: 0, text: 'Looking at the' },
    ];
    const { events, requests } = await runScripted({
      script: script([
        readReadme,
        { parts: opened, end: { kind: 'error', error: tooLong } },
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'context_overflow')).toMatchObject([
      { source: 'in_stream', recovery_attempt: 1, outcome: 'recovering' },
    ]);
    expect(ofType(events, 'watchdog_fired')).toEqual([]);
    // The cut text was not kept: the resend carries the same conversation as the failed request.
    const fg = foreground(requests);
    expect(fg).toHaveLength(3);
    expect(fg[2]!.messages.length).toBe(fg[1]!.messages.length);
    expect(
      ofType(events, 'llm_call')
        .filter((c) => !c.background)
        .map((c) => c.partial ?? false),
    ).toEqual([false, false]);
    expect(ofType(events, 'context_recovered')).toHaveLength(1);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it("Anthropic's model_context_window_exceeded stop counts as an overflow: the cut answer is billed, not kept, and the step is resent", async () => {
    const { events, requests } = await runScripted({
      script: script([
        readReadme,
        textResponse({ text: 'The answer is', stopReason: 'context_window', outputTokens: 700 }),
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'context_overflow')).toMatchObject([
      { source: 'stop_reason', outcome: 'recovering' },
    ]);
    const fg = foreground(requests);
    expect(fg[2]!.messages.length).toBe(fg[1]!.messages.length);
    const calls = ofType(events, 'llm_call').filter((c) => !c.background);
    expect(calls.map((c) => c.stop_reason)).toEqual(['tool_use', 'context_window', 'end_turn']);
    expect(terminateOf(events).output_tokens).toBeGreaterThanOrEqual(700);
    expect(ofType(events, 'output_recovery')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it("with the waterfall off, the same stop is the output-cap mechanism's (a length-ended round)", async () => {
    const { events } = await runScripted({
      preset: 's11',
      script: script([
        readReadme,
        textResponse({ text: 'The answer is', stopReason: 'context_window' }),
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'context_overflow')).toEqual([]);
    expect(ofType(events, 'output_recovery').length).toBeGreaterThan(0);
  });
});
