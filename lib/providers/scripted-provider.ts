import type { Clock } from '@/lib/clock';
import type { StopReason, Vendor } from '@/lib/protocol';
import { dialectOf } from '@/lib/protocol';
import type { ModelRequest, ProviderAdapter, StreamOptions, StreamPart } from './types';
import { anthropicErrorBody } from '@/lib/dialects';

/**
 * One scripted answer: parts streamed `gapMs` of run time apart, then how the stream ends —
 * cleanly, with an error (as the SDK would throw it), or not at all (a stall the caller's
 * signal must end). An `error` with no parts is a failure before the stream opens.
 */
export interface ScriptedResponse {
  parts: StreamPart[];
  gapMs?: number;
  end?: { kind: 'done' } | { kind: 'error'; error: unknown } | { kind: 'stall' };
}

export type Script = ScriptedResponse[] | ((request: ModelRequest, n: number) => ScriptedResponse);

/** A ProviderAdapter double that also records what it was asked. */
export interface ScriptedProvider extends ProviderAdapter {
  readonly requests: ModelRequest[];
}

/**
 * A provider that replays a script of stream parts and errors on the run clock, for fast
 * direct tests of the engine (callModel, the stream consumer, the watchdog, runLoop) without
 * an SDK or a simulated vendor underneath. It honours the abort signal like a real adapter.
 */
export function createScriptedProvider(options: {
  script: Script;
  clock: Clock;
  vendor?: Vendor;
}): ScriptedProvider {
  const { clock } = options;
  const vendor = options.vendor ?? 'sim-anthropic';
  const requests: ModelRequest[] = [];
  return {
    vendor,
    dialect: dialectOf(vendor),
    requests,
    async stream(request: ModelRequest, { signal, onPart }: StreamOptions): Promise<void> {
      const n = requests.length;
      // A snapshot: the loop goes on appending to the conversation it sent.
      requests.push({ ...request, messages: [...request.messages] });
      const step = typeof options.script === 'function' ? options.script(request, n) : options.script[n];
      if (!step) throw new Error(`scripted provider: no response scripted for request ${n + 1}`);
      for (const part of step.parts) {
        if (step.gapMs) await clock.sleep(step.gapMs, signal);
        if (signal.aborted) throw signal.reason;
        onPart(part);
      }
      const end = step.end ?? { kind: 'done' };
      if (end.kind === 'error') throw end.error;
      if (end.kind === 'stall') await clock.sleep(Number.MAX_SAFE_INTEGER, signal);
    },
  };
}

/** A complete text answer as an adapter would yield it. */
export function textResponse(options: {
  text: string;
  stopReason?: StopReason;
  inputTokens?: number;
  outputTokens?: number;
  chunks?: number;
  gapMs?: number;
}): ScriptedResponse {
  const {
    text,
    stopReason = 'end_turn',
    inputTokens = 100,
    outputTokens = Math.ceil(text.length / 4),
  } = options;
  const chunks = Math.max(1, options.chunks ?? 1);
  const size = Math.ceil(text.length / chunks);
  const deltas: StreamPart[] = [];
  for (let i = 0; i < text.length; i += size)
    deltas.push({ type: 'text-delta', index: 0, text: text.slice(i, i + size) });
  return {
    gapMs: options.gapMs,
    parts: [
      { type: 'response-start', id: 'msg_scripted', model: 'scripted', inputTokens },
      ...deltas,
      { type: 'block-stop', index: 0 },
      { type: 'usage', inputTokens, outputTokens },
      { type: 'finish', stopReason, vendorStopReason: stopReason },
    ],
  };
}

/** An answer that calls tools; `argsText` may be cut (a call the cap stopped mid-arguments). */
export function toolCallResponse(options: {
  calls: Array<{ id: string; name: string; argsText: string }>;
  stopReason?: StopReason;
  outputTokens?: number;
}): ScriptedResponse {
  const parts: StreamPart[] = [
    { type: 'response-start', id: 'msg_scripted', model: 'scripted', inputTokens: 100 },
  ];
  options.calls.forEach((call, index) => {
    parts.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    parts.push({ type: 'tool-call-delta', index, argsText: call.argsText });
    parts.push({ type: 'block-stop', index });
  });
  parts.push({ type: 'usage', inputTokens: 100, outputTokens: options.outputTokens ?? 20 });
  parts.push({
    type: 'finish',
    stopReason: options.stopReason ?? 'tool_use',
    vendorStopReason: options.stopReason ?? 'tool_use',
  });
  return { parts };
}

/** An error shaped as the SDKs throw it (status, vendor body, headers), for the classifier. */
export function apiError(options: {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}): Error {
  return Object.assign(new Error(`${options.status} ${options.message}`), {
    status: options.status,
    error: anthropicErrorBody({ type: options.type, message: options.message }),
    headers: new Headers(options.headers ?? {}),
  });
}
