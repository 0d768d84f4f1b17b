import { createHash } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type IdGenerator,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_SERVICE_NAME,
} from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_SEED,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
import type { RunEvent } from '@/lib/protocol';
import { recordEvent } from './loop-lab-span-events';

export interface RunToOtlpOptions {
  runId: string;
  events: readonly RunEvent[];
  /** Epoch ms of the run's start: run-clock ts are offsets from it. */
  startedAtMs: number;
}

/** Trace and span ids from the run id and a counter: the same run always exports the same file. */
function seededIds(runId: string): IdGenerator {
  let n = 0;
  const hex = (bytes: number): string =>
    createHash('sha256')
      .update(`${runId}:${(n += 1)}`)
      .digest('hex')
      .slice(0, bytes * 2);
  return { generateTraceId: () => hex(16), generateSpanId: () => hex(8) };
}

function providerName(vendor: string): string {
  return vendor.includes('anthropic') ? 'anthropic' : 'openai';
}

/**
 * A run's log as OTLP JSON (ExportTraceServiceRequest) with the GenAI semantic conventions:
 * one `invoke_agent` span for the run, a `chat` span per model request attempt (its retry
 * number as `http.request.resend_count`, a failure as `error.type` and status ERROR, the
 * retry wait that followed as a span event), and an `execute_tool` span per tool call. Built
 * with the OpenTelemetry SDK and serialized by its OTLP JSON serializer. Each event of the log
 * is also a span event carrying the event as JSON (`loop_lab.event`), so Loop Lab's import
 * reads the run back whole: config, attempts with usage and errors, tool arguments, vendor.
 */
export function runToOtlp({ runId, events, startedAtMs }: RunToOtlpOptions): string {
  const exporter = new InMemorySpanExporter();
  const start = events.find((e) => e.event === 'run_start');
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'loop-lab' }),
    idGenerator: seededIds(runId),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    // Every event of the log rides along (loop-lab-span-events.ts): none may be dropped.
    spanLimits: { eventCountLimit: Number.MAX_SAFE_INTEGER },
  });
  const tracer = provider.getTracer('loop-lab', '0.1.0');
  const at = (ts: number): number => startedAtMs + ts;
  const vendor = start?.event === 'run_start' ? start.vendor : 'unknown';
  const model = start?.event === 'run_start' ? start.model : 'unknown';

  const agent = tracer.startSpan(
    `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} loop-lab`,
    {
      kind: SpanKind.INTERNAL,
      startTime: at(events[0]?.ts ?? 0),
      attributes: {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_NAME]: 'loop-lab',
        [ATTR_GEN_AI_CONVERSATION_ID]: runId,
        [ATTR_GEN_AI_PROVIDER_NAME]: providerName(vendor),
        [ATTR_GEN_AI_REQUEST_MODEL]: model,
        ...(start?.event === 'run_start'
          ? {
              [ATTR_GEN_AI_REQUEST_SEED]: start.config.seed,
              'loop_lab.scenario': start.scenario.id,
              'loop_lab.preset': start.config.preset,
            }
          : {}),
      },
    },
    ROOT_CONTEXT,
  );
  const parent = trace.setSpan(ROOT_CONTEXT, agent);

  let chat: Span | undefined;
  const tools = new Map<string, Span>();
  const endChat = (ts: number): void => {
    chat?.end(at(ts));
    chat = undefined;
  };
  // An event goes on the span open when it happened: its attempt's, its tool call's, else the run's.
  const spanOf = (event: RunEvent): Span => {
    if (event.event === 'run_start' || event.event === 'terminate') return agent;
    if (event.event === 'tool_start' || event.event === 'tool_call')
      return (event.call_id ? tools.get(event.call_id) : undefined) ?? agent;
    return chat ?? agent;
  };
  for (const event of events) {
    const opens = event.event === 'model_request' || event.event === 'tool_start';
    if (!opens) recordEvent(spanOf(event), event, at(event.ts));
    switch (event.event) {
      case 'model_request': {
        endChat(event.ts);
        const attributes: Attributes = {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
          [ATTR_GEN_AI_PROVIDER_NAME]: providerName(event.vendor),
          [ATTR_GEN_AI_REQUEST_MODEL]: event.model,
          [ATTR_GEN_AI_REQUEST_MAX_TOKENS]: event.max_tokens,
          [ATTR_HTTP_REQUEST_RESEND_COUNT]: event.attempt - 1,
          'loop_lab.iteration': event.iteration,
          'loop_lab.attempt': event.attempt,
          'loop_lab.background': event.background,
        };
        chat = tracer.startSpan(
          `${GEN_AI_OPERATION_NAME_VALUE_CHAT} ${event.model}`,
          { kind: SpanKind.CLIENT, startTime: at(event.ts), attributes },
          parent,
        );
        break;
      }
      case 'stream_open':
        chat?.setAttributes({
          [ATTR_GEN_AI_RESPONSE_ID]: event.response_id,
          [ATTR_GEN_AI_RESPONSE_MODEL]: event.model,
        });
        break;
      case 'llm_call':
        chat?.setAttributes({
          [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.input_tokens,
          [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.output_tokens,
          [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [event.stop_reason],
          'loop_lab.usd': event.usd ?? 0,
        });
        endChat(event.ts);
        break;
      case 'model_error':
        chat?.setAttributes({
          [ATTR_ERROR_TYPE]:
            event.vendor_type ?? (event.status !== undefined ? String(event.status) : event.category),
          'loop_lab.error.category': event.category,
          'loop_lab.error.retryable': event.retryable,
        });
        chat?.setStatus({ code: SpanStatusCode.ERROR, message: event.message });
        // The span stays open for the retry decision; it ends at the next attempt or event.
        break;
      case 'retry_scheduled':
        endChat(event.ts);
        break;
      case 'tool_start':
        endChat(event.ts);
        tools.set(
          event.call_id,
          tracer.startSpan(
            `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${event.tool}`,
            {
              kind: SpanKind.INTERNAL,
              startTime: at(event.ts),
              attributes: {
                [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
                [ATTR_GEN_AI_TOOL_NAME]: event.tool,
                [ATTR_GEN_AI_TOOL_CALL_ID]: event.call_id,
                'loop_lab.iteration': event.iteration,
              },
            },
            parent,
          ),
        );
        break;
      case 'tool_call': {
        const span = event.call_id ? tools.get(event.call_id) : undefined;
        if (!span) break;
        if (event.is_error) {
          span.setAttribute(ATTR_ERROR_TYPE, event.status ?? 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.setAttribute('loop_lab.result_chars', event.result_chars);
        span.end(at(event.ts));
        tools.delete(event.call_id!);
        break;
      }
      case 'terminate':
        endChat(event.ts);
        for (const span of tools.values()) span.end(at(event.ts));
        agent.setAttributes({
          [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.input_tokens,
          [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.output_tokens,
          'loop_lab.terminate.reason': event.reason,
          'loop_lab.complete': event.complete,
          'loop_lab.usd': event.usd_so_far,
        });
        if (!event.complete)
          agent.setStatus({ code: SpanStatusCode.ERROR, message: event.message ?? event.reason });
        agent.end(at(event.ts));
        break;
      default:
        break;
    }
    if (opens) recordEvent(spanOf(event), event, at(event.ts));
  }
  const last = events.at(-1)?.ts ?? 0;
  endChat(last);
  if (agent.isRecording()) agent.end(at(last));
  const bytes = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  return new TextDecoder().decode(bytes);
}
