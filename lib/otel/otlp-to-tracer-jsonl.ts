import { describeIssues, MAX_EVENT_DEPTH, parseJsonWithin } from '@/lib/protocol';
import { attributeOf, OtlpTraceRequestSchema, type OtlpSpan } from './otlp-json-schema';
import { ownLogOf } from './loop-lab-span-events';

/** Is this text an OTLP/JSON trace request rather than JSONL? */
export function looksLikeOtlp(text: string): boolean {
  const head = text.trimStart().slice(0, 200);
  return head.startsWith('{') && head.includes('"resourceSpans"');
}

/** How deep an OTLP trace may nest: its envelope (resourceSpans › scopeSpans › spans › attributes › value) and an event's worth below. */
export const MAX_OTLP_DEPTH = MAX_EVENT_DEPTH;

const nanosToMs = (n: string | number): number => Number(BigInt(n) / 1_000_000n);

/**
 * An OTLP/JSON trace as JSONL the run import reads. Loop Lab's own export carries its event log
 * as span events (loop-lab-span-events.ts) and comes back as that log, whole. Any other trace
 * with GenAI spans (an agent instrumented with the GenAI conventions) becomes plain-tracer
 * JSONL: each `chat` span that returned a response becomes an llm_call line, each
 * `execute_tool` span a tool_call line, the `invoke_agent` span the terminate line. Failed chat
 * attempts carry no usage and are left out (the plain tracer has no line for them); a
 * cut-short response that was kept and billed stays. Such a trace has no run config: the run
 * is stored under the importer's placeholder (importedConfig), which the page does not offer
 * to run again.
 */
export function otlpToTracerJsonl(
  text: string,
): { ok: true; jsonl: string } | { ok: false; errors: string[] } {
  // A nested attribute value (arrayValue / kvlistValue) far deeper than any trace needs would
  // overflow the stack inside the recursive schema: refused here, with where it is.
  const raw = parseJsonWithin(text, MAX_OTLP_DEPTH);
  if (!raw.ok && raw.tooDeep === undefined) return { ok: false, errors: [`not valid JSON: ${raw.syntax}`] };
  if (!raw.ok)
    return { ok: false, errors: [`${raw.tooDeep}: nested deeper than ${MAX_OTLP_DEPTH} levels; flatten it`] };
  const parsed = OtlpTraceRequestSchema.safeParse(raw.value);
  if (!parsed.success) return { ok: false, errors: describeIssues(parsed.error).slice(0, 20) };
  const spans = parsed.data.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  // Loop Lab's own export carries its log: read back whole, as Loop Lab's own JSONL.
  const own = ownLogOf(spans);
  if (own && 'error' in own) return { ok: false, errors: [own.error] };
  if (own) return { ok: true, jsonl: own.jsonl };
  const op = (span: OtlpSpan): unknown => attributeOf(span, 'gen_ai.operation.name');
  const ordered = [...spans].sort((a, b) =>
    Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)),
  );
  const agent = ordered.find((s) => op(s) === 'invoke_agent');
  const runId = String(
    attributeOf(agent ?? { attributes: [] }, 'gen_ai.conversation.id') ?? agent?.traceId ?? 'otlp',
  );
  const lines: Record<string, unknown>[] = [];
  let iteration = 0;
  let usd = 0;
  for (const span of ordered) {
    const ts = nanosToMs(span.endTimeUnixNano);
    const latency = ts - nanosToMs(span.startTimeUnixNano);
    if (op(span) === 'chat') {
      const input = attributeOf(span, 'gen_ai.usage.input_tokens');
      if (typeof input !== 'number') continue;
      iteration = Number(attributeOf(span, 'loop_lab.iteration') ?? iteration + 1);
      usd += Number(attributeOf(span, 'loop_lab.usd') ?? 0);
      const reasons = attributeOf(span, 'gen_ai.response.finish_reasons');
      lines.push({
        run_id: runId,
        ts,
        event: 'llm_call',
        iteration,
        input_tokens: input,
        output_tokens: Number(attributeOf(span, 'gen_ai.usage.output_tokens') ?? 0),
        usd_so_far: usd,
        latency_ms: latency,
        stop_reason: Array.isArray(reasons) ? String(reasons[0] ?? 'end_turn') : 'end_turn',
        model: String(
          attributeOf(span, 'gen_ai.response.model') ?? attributeOf(span, 'gen_ai.request.model') ?? '',
        ),
      });
    } else if (op(span) === 'execute_tool') {
      lines.push({
        run_id: runId,
        ts,
        event: 'tool_call',
        iteration: Number(attributeOf(span, 'loop_lab.iteration') ?? iteration),
        tool: String(attributeOf(span, 'gen_ai.tool.name') ?? span.name),
        call_id: attributeOf(span, 'gen_ai.tool.call.id'),
        is_error: span.status?.code === 2,
        latency_ms: latency,
        result_chars: Number(attributeOf(span, 'loop_lab.result_chars') ?? 0),
      });
    }
  }
  if (lines.length === 0)
    return { ok: false, errors: ['the trace has no gen_ai chat or execute_tool spans to draw'] };
  if (agent) {
    const complete = attributeOf(agent, 'loop_lab.complete');
    lines.push({
      run_id: runId,
      ts: nanosToMs(agent.endTimeUnixNano),
      event: 'terminate',
      iteration,
      reason: String(
        attributeOf(agent, 'loop_lab.terminate.reason') ??
          (agent.status?.code === 2 ? 'model_error' : 'end_turn'),
      ),
      complete: typeof complete === 'boolean' ? complete : agent.status?.code !== 2,
      usd_so_far: Number(attributeOf(agent, 'loop_lab.usd') ?? usd),
    });
  }
  return { ok: true, jsonl: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' };
}
