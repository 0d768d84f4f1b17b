import type { CachedTokens, EventBody, StopReason } from '@/lib/protocol';
import type { ModelRequest, ProviderAdapter, StreamPart } from '@/lib/providers/types';
import { MessageAssembler } from './assemble-message';
import type { EngineDeps } from './engine-deps';
import { IdleWatchdog, StreamIdleTimeout } from './idle-watchdog';

/** A stream that ended cleanly but before the vendor's end marker. */
export class IncompleteStreamError extends Error {
  override readonly name = 'IncompleteStreamError';
  constructor() {
    super('stream ended before the vendor finished the response (connection terminated early)');
  }
}

/** Longest run time a streamed block's pieces are held before they go out as one event. */
export const DELTA_WINDOW_MS = 50;

export interface Usage {
  /** The whole prompt, cached part included. */
  inputTokens: number;
  outputTokens: number;
  /**
   * The vendor reported no output count (its usage comes at the end, and a cut stream never got
   * there): `outputTokens` is what arrived, counted with the one tokenizer (a Partial's).
   */
  outputCounted?: true;
  /** The prompt's part the vendor read from its cache or wrote to it, when it said (absent: the vendor reported no cache). */
  cachedInput?: CachedTokens;
}

export type StreamOutcome =
  | {
      kind: 'complete';
      assembler: MessageAssembler;
      usage: Usage;
      stopReason: StopReason;
      vendorStopReason: string;
      model: string;
    }
  | {
      kind: 'failed';
      error: unknown;
      assembler: MessageAssembler;
      usage: Usage;
      model: string;
      /** Response headers arrived: the failure happened inside the stream. */
      opened: boolean;
      watchdogFired: boolean;
    };

export interface ConsumeOptions extends Omit<EngineDeps, 'random'> {
  provider: ProviderAdapter;
  request: ModelRequest;
  iteration: number;
  attempt: number;
  /** Stream idle window; undefined when the watchdog is off. */
  watchdogMs?: number;
  /** Shown each part as it arrives (the mechanism port's onStreamPart); absent when nothing watches. */
  watch?: (part: StreamPart) => void;
}

/**
 * Streams one attempt: every part becomes an event as it arrives (synchronously, in the
 * adapter's own loop over the SDK's events), the message is assembled
 * as it goes, and the idle watchdog aborts the request through the same signal the SDK was
 * given, so a stalled body really stops. Never throws: a failure is an outcome.
 */
export async function consumeStream(options: ConsumeOptions): Promise<StreamOutcome> {
  const { provider, request, clock, emit, iteration, attempt } = options;
  // One signal for the SDK that both the run (abort) and the watchdog can pull. Linked by
  // hand: AbortSignal.any allocates weak references that show up in a profile per request.
  const controller = new AbortController();
  const signal = controller.signal;
  const forwardAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) forwardAbort();
  else options.signal.addEventListener('abort', forwardAbort, { once: true });
  const assembler = new MessageAssembler(provider.vendor, request.model);
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const started = clock.now();
  const toolByIndex = new Map<number, { id: string; name: string }>();
  let model = request.model;
  let opened = false;
  let finish: { stopReason: StopReason; vendorStopReason: string } | undefined;
  const watchdog =
    options.watchdogMs === undefined
      ? undefined
      : new IdleWatchdog({
          clock,
          windowMs: options.watchdogMs,
          onFire: (error) => controller.abort(error),
          probe: options.probe,
        });

  // Deltas are coalesced per block for up to DELTA_WINDOW_MS of run time: the log, the SSE
  // stream and the browser get a handful of events a second per block instead of one per
  // token, and nothing is lost (the text is the same, the timing within a window). A window
  // also closes on the clock, so text that arrived before a stall is shown when it arrived,
  // not when the stall ends.
  // A window's pieces are joined once when it closes: `+=` per piece would build a rope.
  let pending:
    | {
        index: number;
        kind: 'text' | 'thinking' | 'tool_args';
        pieces: string[];
        since: number;
        tool: { id: string; name: string } | undefined;
      }
    | undefined;
  let cancelWindow: (() => void) | undefined;
  const flush = (): void => {
    if (!pending) return;
    const { index, kind, pieces, tool } = pending;
    pending = undefined;
    cancelWindow?.();
    cancelWindow = undefined;
    const body: EventBody = {
      event: 'content_delta',
      iteration,
      attempt,
      index,
      kind,
      text: pieces.length === 1 ? pieces[0]! : pieces.join(''),
    };
    if (tool) {
      body.call_id = tool.id;
      body.tool = tool.name;
    }
    emit(body);
  };
  // One callback for every window of this stream: a closure per window would be garbage per block.
  const windowClosed = (): void => {
    cancelWindow = undefined;
    flush();
  };
  let now = started;
  const delta = (index: number, kind: 'text' | 'thinking' | 'tool_args', text: string): void => {
    if (
      pending &&
      (pending.index !== index || pending.kind !== kind || now - pending.since >= DELTA_WINDOW_MS)
    )
      flush();
    if (pending) {
      pending.pieces.push(text);
      return;
    }
    pending = {
      index,
      kind,
      pieces: [text],
      since: now,
      tool: kind === 'tool_args' ? toolByIndex.get(index) : undefined,
    };
    cancelWindow = clock.setTimer(DELTA_WINDOW_MS, windowClosed);
  };

  const watch = options.watch;
  const onPart = (part: StreamPart): void => {
    now = clock.now();
    watchdog?.touch(now);
    watch?.(part);
    switch (part.type) {
      case 'connected':
        opened = true;
        return;
      case 'response-start':
        opened = true;
        model = part.model || model;
        assembler.setModel(model);
        if (part.inputTokens !== undefined) usage.inputTokens = part.inputTokens;
        if (part.cachedInput !== undefined) usage.cachedInput = part.cachedInput;
        emit({
          event: 'stream_open',
          iteration,
          attempt,
          response_id: part.id,
          model,
          ttfb_ms: now - started,
        });
        return;
      case 'text-delta':
        assembler.add(part);
        delta(part.index, 'text', part.text);
        return;
      case 'thinking-delta':
        assembler.add(part);
        delta(part.index, 'thinking', part.text);
        return;
      case 'tool-call-start':
        // Announced at once, so the tool's name shows before its arguments stream in.
        flush();
        assembler.add(part);
        toolByIndex.set(part.index, { id: part.id, name: part.name });
        emit({
          event: 'content_delta',
          iteration,
          attempt,
          index: part.index,
          kind: 'tool_args',
          text: '',
          call_id: part.id,
          tool: part.name,
        });
        return;
      case 'tool-call-delta':
        assembler.add(part);
        delta(part.index, 'tool_args', part.argsText);
        return;
      case 'thinking-signature':
      case 'redacted-thinking':
        assembler.add(part);
        return;
      case 'usage':
        if (part.inputTokens !== undefined) usage.inputTokens = part.inputTokens;
        if (part.cachedInput !== undefined) usage.cachedInput = part.cachedInput;
        if (part.outputTokens !== undefined) usage.outputTokens = part.outputTokens;
        return;
      case 'finish':
        finish = { stopReason: part.stopReason, vendorStopReason: part.vendorStopReason };
        return;
      case 'block-stop':
        flush();
        assembler.add(part);
        return;
    }
  };

  try {
    await provider.stream(request, { signal, onPart });
    flush();
    if (!finish) throw new IncompleteStreamError();
    return { kind: 'complete', assembler, usage, model, ...finish };
  } catch (error) {
    flush();
    const watchdogFired = watchdog?.hasFired ?? false;
    const cause = watchdogFired ? new StreamIdleTimeout(options.watchdogMs ?? 0) : error;
    return { kind: 'failed', error: cause, assembler, usage, model, opened, watchdogFired };
  } finally {
    cancelWindow?.();
    watchdog?.stop();
    options.signal.removeEventListener('abort', forwardAbort);
  }
}
