import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '@/lib/providers/types';
import { textResponse, toolCallResponse, type ScriptedResponse } from '@/lib/providers/scripted-provider';
import { ofType, terminateOf } from '@/lib/testing/run-to-end';
import { runScripted } from '@/lib/testing/run-scripted';
import { CONTINUE_AFTER_CAP, CONTINUE_AFTER_PARTIAL } from './output-cap';

/** Answers the background title call; everything else from `turns`, in order. */
function script(turns: ScriptedResponse[]) {
  let n = 0;
  return (request: ModelRequest): ScriptedResponse => {
    if (request.tools.length === 0) return textResponse({ text: 'A title' });
    const next = turns[n++];
    if (!next) throw new Error(`no turn scripted for foreground request ${n}`);
    return next;
  };
}

const cut = (text: string) => textResponse({ text, stopReason: 'max_tokens', outputTokens: 500 });
const foreground = (requests: ModelRequest[]) => requests.filter((r) => r.tools.length > 0);
const lastUserText = (request: ModelRequest) => {
  const last = request.messages.at(-1)!;
  const part = last.parts[0];
  return last.role === 'user' && part?.type === 'text' ? part.text : undefined;
};

describe('output cap recovery through the loop (s11, scripted provider, virtual clock)', () => {
  it('escalates once (8,000 → 64,000, the cut output not kept), then continues 3 times, then ends saying so', async () => {
    const { events, requests } = await runScripted({
      preset: 's11',
      script: script([cut('first'), cut('second'), cut('third'), cut('fourth'), cut('fifth')]),
    });
    const fg = foreground(requests);
    expect(fg.map((r) => r.maxTokens)).toEqual([8_000, 64_000, 64_000, 64_000, 64_000]);
    // The escalated request is the same request: the cut output was not appended.
    expect(fg[1]!.messages).toEqual(fg[0]!.messages);
    // Then each cut output is kept and followed by the continuation prompt.
    expect(fg[2]!.messages.length).toBe(fg[1]!.messages.length + 2);
    expect(lastUserText(fg[2]!)).toBe(CONTINUE_AFTER_CAP);
    const steps = ofType(events, 'output_recovery');
    expect(steps.map((s) => [s.action, s.continuation ?? null])).toEqual([
      ['escalate', null],
      ['continue', 1],
      ['continue', 2],
      ['continue', 3],
      ['exhausted', 3],
    ]);
    expect(steps[0]).toMatchObject({
      max_tokens: 8_000,
      next_max_tokens: 64_000,
      kept: false,
      output_tokens: 500,
    });
    expect(terminateOf(events)).toMatchObject({
      reason: 'max_tokens',
      complete: false,
      message: 'still truncated after 3 continuations',
    });
    // Every call was billed, the dropped one included.
    expect(terminateOf(events).output_tokens).toBe(5 * 500);
  });

  it('a continuation that finishes ends the run normally', async () => {
    const { events } = await runScripted({
      preset: 's11',
      script: script([cut('a'), cut('b'), textResponse({ text: 'done' })]),
    });
    expect(ofType(events, 'output_recovery').map((s) => s.action)).toEqual(['escalate', 'continue']);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it("the escalated cap is lowered to the model's own output limit", async () => {
    const { requests } = await runScripted({
      preset: 's11',
      script: script([
        {
          ...cut('a'),
          parts: cut('a').parts.map((p) => (p.type === 'response-start' ? { ...p, model: 'gpt-sim-4o' } : p)),
        },
        textResponse({ text: 'done' }),
      ]),
    });
    expect(foreground(requests).map((r) => r.maxTokens)).toEqual([8_000, 16_384]);
  });

  it('a window-exceeded stop counts as cut: not escalated (a bigger cap cannot help), continued', async () => {
    const { events } = await runScripted({
      preset: 's11',
      script: script([
        textResponse({ text: 'x', stopReason: 'context_window' }),
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'output_recovery').map((s) => [s.action, s.stop_reason])).toEqual([
      ['continue', 'context_window'],
    ]);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('without continuations (CodeSmith) a cut answer ends the run with an event that says why', async () => {
    const sonnet = {
      ...cut('a'),
      parts: cut('a').parts.map((p) =>
        p.type === 'response-start' ? { ...p, model: 'claude-sim-sonnet' } : p,
      ),
    };
    const { events } = await runScripted({ preset: 'codesmith', script: script([sonnet]) });
    expect(ofType(events, 'output_recovery')).toMatchObject([
      { action: 'exhausted', max_continuations: 0, max_tokens: 64_000 },
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'max_tokens', complete: false });
    expect(terminateOf(events).message).toMatch(
      /cut at the 64000-token output cap, and no continuation is configured/,
    );
  });

  it("CodeSmith's preventive 262,144-token budget is asked for within the model's own limit, and each request says so", async () => {
    const { events, requests } = await runScripted({
      preset: 'codesmith',
      script: script([textResponse({ text: 'done' })]),
    });
    expect(foreground(requests).map((r) => r.maxTokens)).toEqual([64_000]);
    const [request] = ofType(events, 'model_request').filter((e) => !e.background);
    expect(request).toMatchObject({ max_tokens: 64_000, max_tokens_configured: 262_144 });
    expect(request?.max_tokens_why).toMatch(
      /262,144 is above claude-sim-sonnet's own limit: the request asks for 64,000/,
    );
  });

  it('tool calls cut mid-arguments are refused, visibly, and the model is asked to resend', async () => {
    const { events, requests } = await runScripted({
      preset: 'codesmith',
      script: script([
        toolCallResponse({
          stopReason: 'max_tokens',
          calls: [
            { id: 'ok1', name: 'list_files', argsText: '{}' },
            { id: 'cut1', name: 'read_file', argsText: '{"path": "src/sl' },
          ],
        }),
        textResponse({ text: 'done' }),
      ]),
    });
    const [step] = ofType(events, 'output_recovery');
    expect(step).toMatchObject({
      action: 'refuse_truncated',
      refused: [{ call_id: 'cut1', tool: 'read_file' }],
      kept: true,
    });
    // The refusal is decided before any call runs; the results go back in call order.
    const calls = ofType(events, 'tool_call');
    expect(calls.map((c) => [c.call_id, c.status])).toEqual([
      ['cut1', 'refused_truncated'],
      ['ok1', 'ok'],
    ]);
    const results = foreground(requests)[1]!.messages.at(-1)!.parts;
    expect(results.flatMap((p) => (p.type === 'tool_result' ? [p.callId] : []))).toEqual(['ok1', 'cut1']);
    const refused = results.find((p) => p.type === 'tool_result' && p.callId === 'cut1');
    expect(refused).toMatchObject({ isError: true });
    expect(refused?.type === 'tool_result' && refused.content).toMatch(/resend|again/i);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('with the refusal switched off, a cut call goes to the tools as it is: the repair ladder closes it and it runs', async () => {
    const { events } = await runScripted({
      preset: 'codesmith',
      recovery: { output: { refuseCutToolCalls: false } },
      script: script([
        toolCallResponse({
          stopReason: 'max_tokens',
          calls: [{ id: 'cut1', name: 'read_file', argsText: '{"path": "src/slugify.js' }],
        }),
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'output_recovery')).toEqual([]);
    expect(ofType(events, 'arg_repair').flatMap((r) => r.changes)).toContain('cut-off closing brace added');
    expect(ofType(events, 'tool_call').map((c) => [c.call_id, c.status])).toEqual([['cut1', 'ok']]);
  });

  it('after a Partial the seed presents what arrived and stops; the continuation is an option, shown and named', async () => {
    const partial: ScriptedResponse = {
      parts: [
        { type: 'response-start', id: 'm', model: 'scripted', inputTokens: 10 },
        { type: 'text-delta', index: 0, text: 'half an ans' },
      ],
      end: { kind: 'stall' },
    };
    const seed = await runScripted({ preset: 'codesmith', script: script([partial]) });
    expect(ofType(seed.events, 'watchdog_fired')).toMatchObject([{ outcome: 'partial' }]);
    expect(ofType(seed.events, 'output_recovery')).toMatchObject([{ action: 'stop_partial', kept: true }]);
    expect(terminateOf(seed.events)).toMatchObject({ reason: 'partial_response', complete: false });

    const option = await runScripted({
      preset: 'codesmith',
      recovery: { output: { continueAfterPartial: true } },
      script: script([partial, textResponse({ text: 'the rest' })]),
    });
    expect(ofType(option.events, 'output_recovery')).toMatchObject([
      { action: 'continue_partial', prompt: CONTINUE_AFTER_PARTIAL },
    ]);
    expect(lastUserText(foreground(option.requests)[1]!)).toBe(CONTINUE_AFTER_PARTIAL);
    expect(terminateOf(option.events).complete).toBe(true);
  });
});
