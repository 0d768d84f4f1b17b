import { describe, expect, it } from 'vitest';
import { parseJsonl } from '@/lib/store';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { attributeOf, OtlpTraceRequestSchema, type OtlpSpan } from './otlp-json-schema';
import { otlpToTracerJsonl } from './otlp-to-tracer-jsonl';
import { runToOtlp } from './run-to-otlp';

const faults = {
  rules: [
    {
      id: 'o',
      when: { kind: 'requests' as const, numbers: [2] },
      action: { type: 'http_error' as const, status: 529 as const },
    },
    {
      id: 't',
      when: { kind: 'requests' as const, numbers: [4] },
      action: { type: 'sse_error' as const, afterEvents: 1, errorType: 'overloaded_error' as const },
    },
  ],
};
const STARTED = Date.UTC(2026, 10, 30, 12);

async function exported() {
  const events = await runToEnd({ seed: 3, faults });
  const text = runToOtlp({ runId: 'run-otel', events, startedAtMs: STARTED });
  const request = OtlpTraceRequestSchema.parse(JSON.parse(text));
  const spans = request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  return { events, text, request, spans };
}
const op = (span: OtlpSpan) => attributeOf(span, 'gen_ai.operation.name');

describe('runToOtlp', () => {
  it('writes OTLP/JSON that validates, with one invoke_agent span, a chat span per attempt and an execute_tool span per call', async () => {
    const { events, request, spans } = await exported();
    expect(attributeOf(request.resourceSpans[0]!.resource!, 'service.name')).toBe('loop-lab');
    const agent = spans.filter((s) => op(s) === 'invoke_agent');
    expect(agent).toHaveLength(1);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(spans.filter((s) => s !== agent[0]).every((s) => s.parentSpanId === agent[0]!.spanId)).toBe(true);
    expect(spans.filter((s) => op(s) === 'chat')).toHaveLength(ofType(events, 'model_request').length);
    expect(spans.filter((s) => op(s) === 'execute_tool')).toHaveLength(ofType(events, 'tool_call').length);

    const end = terminateOf(events);
    expect(attributeOf(agent[0]!, 'gen_ai.usage.input_tokens')).toBe(end.input_tokens);
    expect(attributeOf(agent[0]!, 'gen_ai.conversation.id')).toBe('run-otel');
    expect(Number(BigInt(agent[0]!.endTimeUnixNano) / 1_000_000n)).toBe(STARTED + end.ts);
  });

  it('marks each failed attempt with error.type and ERROR, and the retry with its resend count', async () => {
    const { spans } = await exported();
    const chats = spans.filter((s) => op(s) === 'chat' && attributeOf(s, 'loop_lab.iteration') === 2);
    expect(
      chats.map((s) => [
        attributeOf(s, 'http.request.resend_count'),
        s.status?.code ?? 0,
        attributeOf(s, 'error.type'),
      ]),
    ).toEqual([
      [0, 2, 'overloaded_error'],
      [1, 0, undefined],
    ]);
    // The attempt's own events ride on its span (what the import reads back), the retry's wait among them.
    const names = chats[0]!.events?.map((e) => e.name) ?? [];
    expect(names[0]).toBe('model_request');
    expect(names).toContain('model_error');
    expect(names.at(-1)).toBe('retry_scheduled');
    expect(attributeOf(chats[0]!.events!.at(-1)!, 'loop_lab.wait_ms')).toEqual(expect.any(Number));
    expect(attributeOf(chats[1]!, 'gen_ai.provider.name')).toBe('anthropic');
    expect(attributeOf(chats[1]!, 'gen_ai.response.finish_reasons')).toEqual(['tool_use']);
    const inStream = spans.filter((s) => op(s) === 'chat' && s.status?.code === 2);
    expect(inStream).toHaveLength(2);
    expect(spans.find((s) => op(s) === 'execute_tool')?.name).toMatch(/^execute_tool /);
  });

  it('gives the same file for the same run, and the import reads the run back whole', async () => {
    const first = await exported();
    const second = await exported();
    expect(second.text.replace(/msg_[A-Za-z0-9]+/g, '')).toBe(first.text.replace(/msg_[A-Za-z0-9]+/g, ''));

    const converted = otlpToTracerJsonl(first.text);
    if (!converted.ok) throw new Error(converted.errors.join('; '));
    const trace = parseJsonl({ text: converted.jsonl, runId: 'imported' });
    if (!trace.ok) throw new Error(trace.errors.join('; '));
    expect(trace.events).toEqual(first.events.map((e) => ({ ...e, run_id: 'imported' })));
  });

  it('refuses a file that is not OTLP, naming the field', () => {
    const bad = otlpToTracerJsonl(
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: '1', name: 'a', kind: 1 }] }] }],
      }),
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.join('\n')).toMatch(/traceId/);
  });
});
