import { describe, expect, it } from 'vitest';
import { REASONING_CONTENT_MISSING } from '@/lib/sim';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** Vendor of each foreground llm_call, by turn. */
function vendorsByTurn(events: Awaited<ReturnType<typeof runToEnd>>): string[] {
  return ofType(events, 'llm_call').map((c) => `${c.iteration}:${c.vendor}/${c.model}`);
}

describe('takeover between vendors mid-run', () => {
  it('round trip sim Anthropic (thinking) → sim OpenAI → sim DeepSeek-style → sim Anthropic: every request accepted', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', thinking: true },
      swaps: [
        { atTurn: 2, vendor: 'sim-openai', model: '' },
        { atTurn: 3, vendor: 'sim-deepseek', model: '' },
        { atTurn: 4, vendor: 'sim-anthropic', model: '' },
      ],
    });
    expect(ofType(events, 'model_error')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    const turns = vendorsByTurn(events);
    expect(turns.slice(0, 4)).toEqual([
      '1:sim-anthropic/claude-sim-sonnet',
      '2:sim-openai/gpt-sim-4o',
      '3:sim-deepseek/deepseek-sim-reasoner',
      '4:sim-anthropic/claude-sim-sonnet',
    ]);
    const swaps = ofType(events, 'swap');
    expect(swaps.map((s) => [s.iteration, s.to_vendor, s.dialect, s.cause])).toEqual([
      [2, 'sim-openai', 'openai-chat', 'scheduled'],
      [3, 'sim-deepseek', 'deepseek-reasoning', 'scheduled'],
      [4, 'sim-anthropic', 'anthropic-messages', 'scheduled'],
    ]);
    // Every request after a swap names the vendor in force.
    for (const request of ofType(events, 'model_request')) {
      const inForce = [...swaps].reverse().find((s) => s.seq < request.seq);
      expect(request.vendor).toBe(inForce?.to_vendor ?? 'sim-anthropic');
    }

    const reports = ofType(events, 'takeover_report');
    expect(reports).toHaveLength(3);
    // To OpenAI: Sonnet's thinking (and its signature) dropped; the naive rendering is accepted there.
    expect(reports[0]!.dropped.some((d) => d.kind === 'thinking')).toBe(true);
    expect(reports[0]!.naive).toEqual({ accepted: true });
    // To DeepSeek: tool-call turns get placeholders; sent naively they meet the real 400.
    expect(reports[1]!.converted.some((c) => c.includes('placeholder reasoning_content'))).toBe(true);
    expect(reports[1]!.naive).toMatchObject({
      accepted: false,
      status: 400,
      message: REASONING_CONTENT_MISSING,
    });
    // Back to Sonnet: its own signed thinking comes back to it; DeepSeek's reasoning does not.
    expect(
      reports[2]!.converted.some((c) => c.includes('thinking block passed back with its signature')),
    ).toBe(true);
    expect(reports[2]!.dropped.some((d) => d.detail.includes('without a credential'))).toBe(true);
    expect(reports[2]!.naive).toMatchObject({ accepted: false, status: 400 });
    // DeepSeek's reasoning was streamed and kept in the trajectory as thinking of its own origin.
    const deepseekTurn = ofType(events, 'llm_call').find((c) => c.vendor === 'sim-deepseek');
    expect(deepseekTurn?.message?.parts[0]).toMatchObject({
      type: 'thinking',
      origin: { vendor: 'sim-deepseek' },
    });
  });

  it('Claude model A → model B: A’s signatures sent naively are rejected by the strict vendor with its real 400', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
      takeover: { naive: true },
      swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
    });
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({
      iteration: 3,
      status: 400,
      vendor_type: 'invalid_request_error',
      retryable: false,
    });
    expect(error?.message).toMatch(/messages\.1\.content\.0: Invalid `signature` in `thinking` block/);
    // CodeSmith's exclusion rule resends even a 400 within its budget; each resend is refused the same way.
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
    expect(new Set(ofType(events, 'model_error').map((e) => e.message)).size).toBe(1);
  });

  it('a naive swap records what it sent as it was and what came back: the report has no counterfactual, the outcome is the real 400', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
      takeover: { naive: true },
      swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
    });
    const [report] = ofType(events, 'takeover_report');
    expect(report?.naive).toBeUndefined();
    expect(report?.naive_body).toBeUndefined();
    expect(report?.dropped).toEqual([]);
    expect(
      report?.as_is?.some((c) =>
        c.includes('thinking block sent with the signature sim-anthropic/claude-sim-sonnet minted'),
      ),
    ).toBe(true);
    const [outcome] = ofType(events, 'takeover_outcome');
    const [error] = ofType(events, 'model_error');
    expect(outcome).toMatchObject({
      iteration: 3,
      vendor: 'sim-anthropic',
      model: 'claude-sim-haiku',
      handling: { naive: true },
      outcome: 'refused',
      status: 400,
      vendor_type: 'invalid_request_error',
      message: error!.message,
      category: error!.category,
    });
    // Written when the request settled: after the report, before the engine's own record of the error.
    expect(report!.seq).toBeLessThan(outcome!.seq);
    expect(outcome!.seq).toBeLessThan(error!.seq);
  });

  it('a handled swap’s first request is accepted, and its outcome says so before the turn’s llm_call', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
      swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
    });
    const outcomes = ofType(events, 'takeover_outcome');
    expect(outcomes).toEqual([
      expect.objectContaining({
        iteration: 3,
        vendor: 'sim-anthropic',
        model: 'claude-sim-haiku',
        handling: expect.objectContaining({ naive: false }),
        outcome: 'accepted',
      }),
    ]);
    const call = ofType(events, 'llm_call').find((c) => c.seq > outcomes[0]!.seq);
    expect(call).toMatchObject({ iteration: 3, model: 'claude-sim-haiku' });
  });

  it('a fault on the first request after a swap is its outcome (OpenAI’s overloaded is a 503); the retry after it is no takeover’s first request', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic' },
      swaps: [{ atTurn: 2, vendor: 'sim-openai', model: '' }],
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'requests', numbers: [2] },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'takeover_outcome')).toEqual([
      expect.objectContaining({ outcome: 'refused', status: 503, category: 'overloaded' }),
    ]);
  });

  it('the same swap handled correctly drops the signatures and is accepted; the report shows the naive 400 one click away', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
      swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
    });
    expect(ofType(events, 'model_error')).toEqual([]);
    const [report] = ofType(events, 'takeover_report');
    expect(report?.naive).toMatchObject({ accepted: false, status: 400, type: 'invalid_request_error' });
    expect(report?.naive?.message).toMatch(/Invalid `signature` in `thinking` block/);
    expect(report?.naive?.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('keeps the wire on both sides of a swap: the bodies the vendors received, and the naive body the vendor refuses', async () => {
    const received: { vendor: string; body: unknown }[] = [];
    const events = await runToEnd(
      {
        provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
        swaps: [{ atTurn: 3, vendor: 'sim-deepseek', model: '' }],
      },
      { onVendorRequest: ({ vendor, body }) => received.push({ vendor, body: JSON.parse(body) as unknown }) },
    );
    const [swap] = ofType(events, 'swap');
    const [report] = ofType(events, 'takeover_report');
    // What each side's vendor received, byte for byte the JSON the events keep.
    const lastBefore = received.filter((r) => r.vendor === 'sim-anthropic').at(-1)!;
    const firstAfter = received.find((r) => r.vendor === 'sim-deepseek')!;
    expect(swap?.sent_before).toMatchObject({
      vendor: 'sim-anthropic',
      model: 'claude-sim-sonnet',
      url: 'http://sim.anthropic.local/v1/messages',
    });
    expect(swap?.sent_before?.body).toEqual(lastBefore.body);
    expect(report?.sent).toMatchObject({
      vendor: 'sim-deepseek',
      url: 'http://sim.deepseek.local/v1/chat/completions',
    });
    expect(report?.sent?.body).toEqual(firstAfter.body);
    expect(report?.sent?.chars).toBe(JSON.stringify(firstAfter.body).length);
    // Anthropic's thinking blocks carry signatures before; after, none travels, and the naive body still has them.
    expect(JSON.stringify(swap?.sent_before?.body)).toContain('"signature"');
    expect(JSON.stringify(report?.sent?.body)).not.toContain('signature');
    expect(report?.naive).toMatchObject({ accepted: false, status: 400 });
    expect(report?.naive_body?.body).not.toEqual(report?.sent?.body);
  });

  it('a naive takeover to the DeepSeek-style vendor fails with its reasoning_content error', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-openai' },
      takeover: { naive: true },
      swaps: [{ atTurn: 3, vendor: 'sim-deepseek', model: '' }],
    });
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({ iteration: 3, status: 400 });
    expect(error?.message).toContain(REASONING_CONTENT_MISSING);
    expect(terminateOf(events).reason).toBe('retries_exhausted');
  });

  it('a swap control message applies at the next request boundary', async () => {
    let sent = false;
    const events = await runToEnd(
      { provider: { vendor: 'sim-anthropic' } },
      {
        onEvent: (event, control) => {
          if (!sent && event.event === 'tool_call') {
            sent = true;
            control({ action: 'swap', target: { vendor: 'sim-deepseek', model: '' } });
          }
        },
      },
    );
    const [swap] = ofType(events, 'swap');
    expect(swap).toMatchObject({
      cause: 'control',
      from_vendor: 'sim-anthropic',
      to_vendor: 'sim-deepseek',
      to_model: 'deepseek-sim-reasoner',
    });
    const next = events.find((e) => e.seq > swap!.seq && e.event === 'model_request');
    expect(next).toMatchObject({
      vendor: 'sim-deepseek',
      model: 'deepseek-sim-reasoner',
      iteration: swap!.iteration,
    });
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('a swap asked for as the run ends is said not made, before the terminate, never dropped in silence', async () => {
    let sent = false;
    const events = await runToEnd(
      { provider: { vendor: 'sim-anthropic' } },
      {
        onEvent: (event, control) => {
          if (!sent && event.event === 'llm_call' && event.stop_reason === 'end_turn' && !event.background) {
            sent = true;
            control({ action: 'swap', target: { vendor: 'sim-deepseek', model: '' } });
          }
        },
      },
    );
    expect(sent).toBe(true);
    expect(ofType(events, 'swap')).toEqual([]);
    const note = ofType(events, 'log').find((l) => l.about === 'swap');
    expect(note).toMatchObject({
      level: 'warn',
      message: 'swap to sim-deepseek not made: the run ended before its next request',
    });
    expect(note!.seq).toBeLessThan(terminateOf(events).seq);
  });

  it('refuses a swap this installation cannot make, in the log, and stays on its vendor', async () => {
    const events = await runToEnd(
      { provider: { vendor: 'sim-anthropic' } },
      {
        onEvent: (event, control) => {
          if (event.event === 'iteration_start' && event.iteration === 2)
            control({ action: 'swap', target: { vendor: 'sim-openai', model: 'claude-sim-haiku' } });
        },
      },
    );
    expect(ofType(events, 'swap')).toEqual([]);
    expect(
      ofType(events, 'log').some(
        (l) =>
          l.level === 'warn' &&
          l.about === 'swap' &&
          l.message.includes('swap to sim-openai/claude-sim-haiku not made'),
      ),
    ).toBe(true);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('cross-vendor fallback: after N consecutive overloads the call continues on another vendor and model', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic' },
      preset: 's11',
      recovery: {
        fallback: { enabled: true, afterOverloads: 3, vendor: 'sim-openai', model: 'gpt-sim-mini' },
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
    const [swap] = ofType(events, 'swap');
    expect(swap).toMatchObject({
      cause: 'fallback',
      iteration: 1,
      from_vendor: 'sim-anthropic',
      to_vendor: 'sim-openai',
      to_model: 'gpt-sim-mini',
      reason: '3 consecutive overloaded errors',
    });
    expect(ofType(events, 'model_error')).toHaveLength(3);
    // The retry after the third overload is the first request on the new vendor.
    const requests = ofType(events, 'model_request').filter((r) => r.iteration === 1);
    expect(requests.map((r) => `${r.attempt}:${r.vendor}/${r.model}`)).toEqual([
      '1:sim-anthropic/claude-sim-sonnet',
      '2:sim-anthropic/claude-sim-sonnet',
      '3:sim-anthropic/claude-sim-sonnet',
      '4:sim-openai/gpt-sim-mini',
    ]);
    expect(ofType(events, 'retry_scheduled').at(-1)?.rung).toBe('degrade');
    expect(ofType(events, 'llm_call')[0]).toMatchObject({ vendor: 'sim-openai', model: 'gpt-sim-mini' });
    expect(ofType(events, 'takeover_report')).toHaveLength(1);
    expect(terminateOf(events).complete).toBe(true);
  });
});
