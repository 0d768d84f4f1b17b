import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { previousNotFound } from '@/lib/sim';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** Each request body as it reached the vendor, with the vendor it went to. */
async function runWithBodies(
  config: Parameters<typeof runToEnd>[0],
): Promise<{ events: RunEvent[]; bodies: { vendor: string; body: Record<string, unknown> }[] }> {
  const bodies: { vendor: string; body: Record<string, unknown> }[] = [];
  const events = await runToEnd(config, {
    onVendorRequest: ({ vendor, body }) =>
      bodies.push({ vendor, body: JSON.parse(body) as Record<string, unknown> }),
  });
  return { events, bodies };
}

describe('the Responses API as a dialect', () => {
  it('a run on the simulated Responses vendor completes; after turn 1 the history it stored goes by reference', async () => {
    const { events, bodies } = await runWithBodies({
      provider: { vendor: 'sim-openai-responses', thinking: true },
    });
    expect(ofType(events, 'model_error')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    const turns = bodies.filter((b) => Array.isArray(b.body.tools));
    expect(turns.length).toBeGreaterThan(3);
    expect(turns[0]!.body.previous_response_id).toBeUndefined();
    // Every later turn names the response before it and sends only the tool outputs since.
    const opens = ofType(events, 'stream_open').filter((e) => e.iteration >= 1);
    for (const [k, turn] of turns.slice(1).entries()) {
      expect(turn.body.previous_response_id).toBe(opens[k]!.response_id);
      expect(
        (turn.body.input as { type?: string }[]).every((item) => item.type === 'function_call_output'),
      ).toBe(true);
    }
    // The reasoning came back sealed, with the item it is sealed to, kept as the turn's credential.
    const first = ofType(events, 'llm_call')[0]!;
    expect(first.message?.parts[0]).toMatchObject({
      type: 'thinking',
      credential: {
        vendor: 'sim-openai-responses',
        model: 'gpt-sim-5',
        item: expect.stringMatching(/^rs_/),
        signature: expect.stringMatching(/^gAAAAAB/),
      },
    });
  });

  it('Anthropic → Responses → Chat → Anthropic: every request accepted, and each takeover report names the naive handover’s real 400', async () => {
    const { events, bodies } = await runWithBodies({
      provider: { vendor: 'sim-anthropic', thinking: true },
      swaps: [
        { atTurn: 2, vendor: 'sim-openai-responses', model: '' },
        { atTurn: 4, vendor: 'sim-openai', model: '' },
        { atTurn: 5, vendor: 'sim-anthropic', model: '' },
      ],
    });
    expect(ofType(events, 'model_error')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    expect(
      ofType(events, 'llm_call')
        .map((c) => `${c.iteration}:${c.vendor}`)
        .slice(0, 5),
    ).toEqual([
      '1:sim-anthropic',
      '2:sim-openai-responses',
      '3:sim-openai-responses',
      '4:sim-openai',
      '5:sim-anthropic',
    ]);
    const [toResponses, toChat, toAnthropic] = ofType(events, 'takeover_report');
    // Into Responses: all by value (the vendor holds none of it), Claude's signed thinking dropped;
    // sent naively, the signature as encrypted reasoning is the vendor's invalid_encrypted_content.
    expect(toResponses).toMatchObject({ vendor: 'sim-openai-responses', dialect: 'openai-responses' });
    expect(toResponses!.converted.some((c) => c.endsWith('× message sent by value'))).toBe(true);
    expect(
      toResponses!.dropped.some((d) => d.kind === 'thinking' && d.detail.includes('claude-sim-sonnet')),
    ).toBe(true);
    expect(toResponses!.naive).toMatchObject({
      accepted: false,
      status: 400,
      body: { error: { code: 'invalid_encrypted_content' } },
    });
    expect(toResponses!.naive?.message).toMatch(
      /^The encrypted content .{4}\.\.\..{4} could not be verified\.$/,
    );
    // The turn after, the Responses vendor holds the prefix: only the tool output goes.
    const responsesTurns = bodies.filter(
      (b) => b.vendor === 'sim-openai-responses' && Array.isArray(b.body.tools),
    );
    expect(responsesTurns[0]!.body.previous_response_id).toBeUndefined();
    expect(responsesTurns[1]!.body.previous_response_id).toMatch(/^resp_/);
    // Out of Responses: the reference cannot travel, so what it held is re-sent by value.
    expect(
      toChat!.converted.some(
        (c) =>
          c.includes('held by reference at sim-openai-responses/gpt-sim-5') && c.includes('re-sent by value'),
      ),
    ).toBe(true);
    expect(toChat!.naive).toMatchObject({ accepted: false, status: 400 });
    expect(toChat!.naive?.message).toMatch(
      /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
    );
    // Back to Claude: its own signed thinking goes back; the Responses reasoning does not.
    expect(
      toAnthropic!.converted.some((c) => c.includes('thinking block passed back with its signature')),
    ).toBe(true);
    expect(toAnthropic!.naive).toMatchObject({ accepted: false, status: 400 });
    expect(toAnthropic!.naive?.message).toMatch(/Invalid `signature` in `thinking` block/);
  });
});

describe('a model switch within the Responses API', () => {
  const switched = {
    provider: { vendor: 'sim-openai-responses' as const, model: 'gpt-sim-5', thinking: true },
    swaps: [{ atTurn: 3, vendor: 'sim-openai-responses' as const, model: 'gpt-sim-5-mini' }],
  };

  it('handled: the other model’s sealed reasoning is dropped and the history re-sent by value; accepted', async () => {
    const { events, bodies } = await runWithBodies(switched);
    expect(ofType(events, 'model_error')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    const first = bodies.find((b) => b.body.model === 'gpt-sim-5-mini' && Array.isArray(b.body.tools))!;
    expect(first.body.previous_response_id).toBeUndefined();
    expect((first.body.input as { type?: string }[]).some((item) => item.type === 'reasoning')).toBe(false);
    const [report] = ofType(events, 'takeover_report');
    expect(report!.dropped.some((d) => d.kind === 'thinking' && d.detail.includes('gpt-sim-5 '))).toBe(true);
    // Sent naively, gpt-sim-5's stored response is named to gpt-sim-5-mini, which has no such response.
    const reference = /previous_response_id (resp_\w+)/.exec(report!.converted[0]!)?.[1];
    expect(reference).toBeDefined();
    expect(report!.naive).toMatchObject({
      accepted: false,
      status: 400,
      type: 'invalid_request_error',
      message: previousNotFound(reference!),
      body: { error: { code: 'previous_response_not_found', param: 'previous_response_id' } },
    });
  });

  it('naive, by value: gpt-sim-5’s reasoning items sent to gpt-sim-5-mini are the vendor’s invalid_encrypted_content 400', async () => {
    const { events } = await runWithBodies({ ...switched, takeover: { naive: true } });
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({
      iteration: 3,
      status: 400,
      vendor_type: 'invalid_request_error',
      retryable: false,
    });
    expect(error?.message).toMatch(/The encrypted content gAAA\.\.\..{4} could not be verified\./);
    // Resent within CodeSmith's budget (its exclusion rule), refused each time.
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
  });

  it('cross-vendor fallback onto the Responses API: after three overloads the call goes on there, by value', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic' },
      preset: 's11',
      recovery: {
        fallback: {
          enabled: true,
          afterOverloads: 3,
          vendor: 'sim-openai-responses',
          model: 'gpt-sim-5-mini',
        },
      },
      faults: {
        rules: [
          {
            id: 'o3',
            enabled: true,
            when: { kind: 'next', count: 3 },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'swap')[0]).toMatchObject({
      cause: 'fallback',
      to_vendor: 'sim-openai-responses',
      to_model: 'gpt-sim-5-mini',
      dialect: 'openai-responses',
    });
    expect(ofType(events, 'llm_call')[0]).toMatchObject({
      vendor: 'sim-openai-responses',
      model: 'gpt-sim-5-mini',
    });
    expect(terminateOf(events).complete).toBe(true);
  });
});
