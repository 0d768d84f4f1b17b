import { z } from 'zod';
import {
  describeIssues,
  foldTotals,
  importedConfig,
  IMPORTED_SCENARIO,
  resolveRecovery,
  safeParseEvent,
  terminateAfter,
  terminateEvent,
  TerminateReasonSchema,
  type RunEvent,
} from '@/lib/protocol';
import { capErrors, type JsonlLine, type ParsedTrace } from './jsonl-lines';

/**
 * The plain tracer's JSONL (the course's 20-line Tracer) converted to run events, so an
 * agent run traced elsewhere can be looked at in Loop Lab. Its lines carry run_id, ts
 * (epoch seconds or ms), event and the fields of llm_call, tool_call and terminate.
 */

const count = z.number().int().min(0);
const IterationSchema = z.number().int().min(0);

const LlmCallLineSchema = z.object({
  iteration: IterationSchema,
  input_tokens: count,
  output_tokens: count,
  usd_so_far: z.number().min(0).optional(),
  stop_reason: z.string().optional(),
  latency_ms: z.number().min(0).optional(),
  vendor: z.string().optional(),
  model: z.string().optional(),
});

const ToolCallLineSchema = z.object({
  iteration: IterationSchema,
  tool: z.string().min(1),
  args: z.unknown().optional(),
  call_id: z.string().optional(),
  result: z.string().optional(),
  result_chars: count.optional(),
  is_error: z.boolean().optional(),
  latency_ms: z.number().min(0).optional(),
});

const TerminateLineSchema = z.object({
  iteration: IterationSchema.optional(),
  reason: z.string().optional(),
  complete: z.boolean().optional(),
  usd_so_far: z.number().min(0).optional(),
  total_usd: z.number().min(0).optional(),
});

export { importedConfig } from '@/lib/protocol';

/** Epoch seconds (the tracer's `round(time.time(), 3)`), epoch ms, or an ISO date, in ms. */
function tsToMs(ts: unknown): number | undefined {
  const value = typeof ts === 'string' && ts.trim() !== '' && !Number.isNaN(Number(ts)) ? Number(ts) : ts;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    return value < 1e11 ? value * 1000 : value;
  }
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

function issues(error: z.ZodError): string {
  return describeIssues(error).join('; ');
}

export interface ParseTracerLinesOptions {
  lines: readonly JsonlLine[];
  runId: string;
}

export function parseTracerLines({ lines, runId }: ParseTracerLinesOptions): ParsedTrace {
  const errors: string[] = [];
  const events: RunEvent[] = [];
  // Events are checked against the union as they are made, so a bad value names its line.
  const push = (line: number, event: Record<string, unknown>): void => {
    const parsed = safeParseEvent({ ...event, run_id: runId, seq: events.length });
    if (parsed.ok) events.push(parsed.event);
    else errors.push(`line ${line}: cannot convert ${String(event.event)} (${parsed.error})`);
  };

  const first = lines[0];
  const firstMs = first ? tsToMs(first.value.ts) : undefined;
  const sourceRunId = first?.value.run_id;
  const tools = new Set<string>();
  let usable = 0;
  let iteration: number | undefined;
  let usd = 0;
  let terminateLine: number | undefined;
  let model: string | undefined;
  let vendor: string | undefined;

  for (const { line, value } of lines) {
    const ms = tsToMs(value.ts);
    const { event: kind } = value;
    if (typeof kind !== 'string' || kind === '') {
      errors.push(`line ${line}: "event" is missing (expected llm_call, tool_call or terminate)`);
      continue;
    }
    if (ms === undefined || firstMs === undefined) {
      errors.push(
        `line ${line}: "ts" is missing or not a time (expected epoch seconds, epoch ms or an ISO date)`,
      );
      continue;
    }
    if (value.run_id !== undefined && sourceRunId !== undefined && value.run_id !== sourceRunId) {
      errors.push(
        `line ${line}: run_id ${JSON.stringify(value.run_id)} differs from ${JSON.stringify(sourceRunId)} on line ${first!.line}; ` +
          'the file holds several runs: split it by run_id and import one at a time',
      );
      continue;
    }
    if (terminateLine !== undefined) {
      errors.push(`line ${line}: ${kind} after the terminate event on line ${terminateLine}`);
      continue;
    }
    const ts = Math.max(0, Math.round(ms - firstMs));
    const at = typeof value.iteration === 'number' ? value.iteration : undefined;
    if (at !== undefined && at !== iteration && Number.isInteger(at) && at >= 0 && kind !== 'terminate') {
      iteration = at;
      push(line, { event: 'iteration_start', ts, iteration });
    }

    if (kind === 'llm_call') {
      const parsed = LlmCallLineSchema.safeParse(value);
      if (!parsed.success) {
        errors.push(`line ${line}: llm_call ${issues(parsed.error)}`);
        continue;
      }
      const call = parsed.data;
      usd = call.usd_so_far ?? usd;
      model ??= call.model;
      vendor ??= call.vendor;
      usable += 1;
      push(line, {
        event: 'llm_call',
        ts,
        iteration: call.iteration,
        ...(call.vendor ? { vendor: call.vendor } : {}),
        ...(call.model ? { model: call.model } : {}),
        input_tokens: call.input_tokens,
        output_tokens: call.output_tokens,
        usd_so_far: usd,
        stop_reason: call.stop_reason ?? 'unknown',
        latency_ms: call.latency_ms ?? 0,
      });
    } else if (kind === 'tool_call') {
      const parsed = ToolCallLineSchema.safeParse(value);
      if (!parsed.success) {
        errors.push(`line ${line}: tool_call ${issues(parsed.error)}`);
        continue;
      }
      const call = parsed.data;
      tools.add(call.tool);
      usable += 1;
      push(line, {
        event: 'tool_call',
        ts,
        iteration: call.iteration,
        ...(call.call_id ? { call_id: call.call_id } : {}),
        tool: call.tool,
        args: call.args ?? {},
        ...(call.result !== undefined ? { result: call.result } : {}),
        result_chars: call.result_chars ?? call.result?.length ?? 0,
        is_error: call.is_error ?? false,
        latency_ms: call.latency_ms ?? 0,
      });
    } else if (kind === 'terminate') {
      const parsed = TerminateLineSchema.safeParse(value);
      if (!parsed.success) {
        errors.push(`line ${line}: terminate ${issues(parsed.error)}`);
        continue;
      }
      const end = parsed.data;
      // The tracer's reason is free text ("finish tool called"): keep it as the message.
      const known = TerminateReasonSchema.safeParse(end.reason);
      const reason = known.success ? known.data : end.complete ? 'end_turn' : 'imported';
      usable += 1;
      terminateLine = line;
      push(line, {
        ts,
        ...terminateEvent({
          iteration: end.iteration ?? iteration,
          reason,
          complete: end.complete ?? reason === 'end_turn',
          message: end.reason && !known.success ? end.reason : undefined,
          // Tokens from the calls in the file; the cost as the tracer states it.
          totals: { ...foldTotals(events), usd: end.total_usd ?? end.usd_so_far ?? usd },
        }),
      });
    } else {
      // Events the converter has no type for are kept as log lines, not dropped.
      const { run_id: _r, ts: _t, event: _e, iteration: _i, ...rest } = value;
      push(line, {
        event: 'log',
        ts,
        ...(iteration !== undefined ? { iteration } : {}),
        level: 'info',
        message: `tracer event ${kind}: ${JSON.stringify(rest)}`,
      });
    }
  }

  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };
  if (usable === 0) {
    return {
      ok: false,
      errors: ['the file has no llm_call, tool_call or terminate lines: nothing to import'],
    };
  }
  const start = safeParseEvent({
    run_id: runId,
    seq: 0,
    ts: 0,
    event: 'run_start',
    config: importedConfig(),
    recovery: resolveRecovery('naive'),
    scenario: {
      id: IMPORTED_SCENARIO,
      title: 'Imported trace',
      task: `Imported from a JSONL trace${sourceRunId !== undefined ? ` (run_id ${String(sourceRunId)})` : ''}`,
    },
    tools: [...tools],
    vendor: vendor ?? 'unknown',
    model: model ?? 'unknown',
    clock: 'real',
    time_scale: 1,
  });
  if (!start.ok) return { ok: false, errors: [`internal: imported run_start is invalid (${start.error})`] };
  const body = events.map((event, index) => ({ ...event, seq: index + 1 }));
  const log: RunEvent[] = [start.event, ...body];
  if (terminateLine === undefined) {
    log.push(
      terminateAfter(log.at(-1), {
        runId,
        iteration,
        reason: 'imported',
        complete: false,
        message: 'the trace ended without a terminate line',
        totals: { ...foldTotals(log), usd },
      }),
    );
  }
  return { ok: true, events: log };
}
