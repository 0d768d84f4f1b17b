import type { EventBody, Message, RecoveryConfig } from '@/lib/protocol';
import { findModel } from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers/types';
import { estimateTokens as estimateText } from '@/lib/tokens/count-tokens';
import { ModelCallFailed, type CallResult } from '../model-call';
import { CircuitBreaker, type BreakerTransition } from './circuit-breaker';
import { stubText } from './compact-old-results';
import { emitBreaker, emitCompaction, type CompactionRecord } from './context-events';
import { ContextMeter } from './context-meter';
import { ContextView, type SentCopy } from './context-view';
import { ResultOrigins } from './result-origins';
import { summarizeHistory, type SummaryDeps, type SummaryHost } from './summary-rung';
import { hardTrim, microCompact, reactiveTrim } from './trim-rungs';

/** The overflow budget of a step is spent: the run ends with reason context_overflow. */
export class ContextOverflowExhausted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextOverflowExhausted';
  }
}

export interface ContextChannelOptions extends SummaryDeps {
  system: string;
  tools: readonly ToolSpec[];
}
type Overflow = { source: 'before_stream' | 'in_stream' | 'stop_reason'; message: string };

/**
 * The context channel: decides what each request carries and keeps it inside the model's
 * window — old results as stubs, a summary call near the threshold (behind a circuit
 * breaker), and when the vendor still says the prompt is too long, the overflow waterfall
 * with its own budget: micro-compact → forced full compaction → hard trim (a local trim
 * when the summary fails). Every step is an event; the log's messages are never changed.
 */
export class ContextChannel {
  private readonly view = new ContextView();
  private readonly meter: ContextMeter;
  private readonly breaker: CircuitBreaker;
  private readonly origins = new ResultOrigins();
  private readonly host: SummaryHost;
  /** What the vendor said the last foreground request read from its prompt cache. */
  private lastCacheRead = 0;

  constructor(private readonly options: ContextChannelOptions) {
    this.meter = new ContextMeter({ system: options.system, tools: options.tools });
    const { breakerFailures, breakerCooldownMs } = options.recovery.compaction;
    this.breaker = new CircuitBreaker({ failures: breakerFailures, cooldownMs: breakerCooldownMs });
    this.host = {
      view: this.view,
      build: (messages, iteration) => this.build(messages, iteration),
      measure: (messages) => this.meter.measure(messages),
      threshold: () => this.threshold(),
      step: (record) => this.step(record),
      deps: options,
      breaker: this.breaker,
      recordBreaker: (iteration, transition) => this.recordBreaker(iteration, transition),
      lastCacheRead: () => this.lastCacheRead,
    };
  }

  /** A forked run's inherited messages keep the turns that added them in the parent's log. */
  adopt(messages: ReadonlyArray<{ message: Message; iteration: number }>): void {
    for (const { message, iteration } of messages) this.view.noteIterations([message], iteration);
  }

  private get config(): RecoveryConfig['compaction'] {
    return this.options.recovery.compaction;
  }

  private window(): number {
    return findModel(this.options.binding.model)?.contextWindow ?? 0;
  }

  private threshold(): number {
    return Math.floor(this.window() * this.config.thresholdRatio);
  }

  /** Whether a context overflow is this channel's to recover (waterfall or reactive compact on). */
  get handlesOverflow(): boolean {
    return this.config.waterfall || this.reactive;
  }

  /**
   * One step's model call through the channel: builds the request copy (compacting first when
   * due or asked), sends it, and on a context overflow runs the waterfall and sends again.
   * `account` records a response the window cut short, which is billed but not kept.
   */
  async call(options: {
    messages: readonly Message[];
    iteration: number;
    compactNow: boolean;
    invoke: (messages: Message[]) => Promise<CallResult>;
    account: (result: CallResult) => void;
  }): Promise<CallResult> {
    const { messages, iteration } = options;
    let sent = await this.prepare({ messages, iteration, compactNow: options.compactNow });
    let used = 0;
    for (;;) {
      let overflow: Overflow;
      try {
        const result = await options.invoke(sent.messages);
        if (!(this.config.waterfall && result.stopReason === 'context_window')) {
          this.meter.calibrate(sent.messages, result.usage.inputTokens);
          this.lastCacheRead = result.usage.cachedInput?.read ?? 0;
          if (used > 0)
            this.emit({
              event: 'context_recovered',
              iteration,
              recovery_attempts: used,
              tokens_est: this.meter.measure(sent.messages),
            });
          return result;
        }
        options.account(result);
        overflow = {
          source: 'stop_reason',
          message: `the context window cut the response (${result.vendorStopReason})`,
        };
      } catch (error) {
        if (!(
          this.handlesOverflow &&
          error instanceof ModelCallFailed &&
          error.category === 'context_length'
        ))
          throw error;
        overflow = { source: error.opened ? 'in_stream' : 'before_stream', message: error.message };
      }
      // s11 tries its reactive compact once per run (has_attempted_reactive_compact).
      const budget = this.reactive ? (this.reactiveSpent ? 0 : 1) : this.config.waterfallBudget;
      const exhausted = used >= budget;
      if (!exhausted) used += 1;
      this.emit({
        event: 'context_overflow',
        iteration,
        source: overflow.source,
        message: overflow.message,
        recovery_attempt: exhausted ? used + 1 : used,
        budget,
        outcome: exhausted ? 'exhausted' : 'recovering',
        tokens_est: this.meter.measure(sent.messages),
      });
      if (exhausted) {
        const why =
          budget === 0
            ? 'the reactive compact was already used in this run'
            : `still too long after ${used} overflow recover${used === 1 ? 'y' : 'ies'} (budget ${budget})`;
        throw new ContextOverflowExhausted(`${overflow.message} — ${why}`);
      }
      if (this.reactive) {
        this.reactiveSpent = true;
        reactiveTrim(this.host, {
          messages,
          iteration,
          attempt: used,
          keep: this.config.reactiveKeepMessages,
        });
      } else await this.waterfall({ messages, iteration, attempt: used });
      sent = this.publish({ messages, iteration });
    }
  }

  /** Before a request: routine stubs, then a full compaction when asked for or near the threshold. */
  private async prepare(options: {
    messages: readonly Message[];
    iteration: number;
    compactNow: boolean;
  }): Promise<SentCopy> {
    const { messages, iteration } = options;
    this.current = { messages, iteration };
    this.view.noteIterations(messages, iteration - 1);
    this.origins.learn(messages, (message) => this.view.iteration(message));
    this.stubRoutinely({ messages, iteration });
    if (options.compactNow) {
      await summarizeHistory(this.host, { messages, iteration, trigger: 'manual' });
    } else if (this.config.proactive && this.window() > 0) {
      const size = this.meter.measure(this.build(messages, iteration).messages);
      if (size >= this.threshold())
        await summarizeHistory(this.host, { messages, iteration, trigger: 'proactive' });
    }
    return this.publish({ messages, iteration });
  }

  /**
   * The copy for these messages as the view stands. A step asks for it up to three times
   * (routine stubs, the proactive check, the copy sent) with nothing changed between, so the
   * last copy is reused while everything it depends on is the same.
   */
  private build(messages: readonly Message[], iteration: number): SentCopy {
    const { view, meter } = this;
    const key = [
      messages,
      messages.length,
      iteration,
      view.from,
      view.summary,
      view.trimmed,
      view.forcedStubs.size,
      meter.scale,
    ];
    const last = this.lastBuild;
    if (last && key.every((value, i) => value === last.key[i])) return last.copy;
    const copy = view.build({
      messages,
      config: this.options.recovery.context,
      iteration,
      count: (m) => meter.message(m),
      task: taskText(messages),
    });
    this.lastBuild = { key, copy };
    return copy;
  }

  private lastBuild: { key: readonly unknown[]; copy: SentCopy } | undefined;

  /** Builds the copy that goes out and records it (context_sent). */
  private publish(options: { messages: readonly Message[]; iteration: number }): SentCopy {
    const sent = this.build(options.messages, options.iteration);
    this.lastSent = sent.messages;
    this.emit({
      event: 'context_sent',
      iteration: options.iteration,
      tokens_est: this.meter.measure(sent.messages),
      window: this.window(),
      threshold: this.threshold(),
      log_messages: options.messages.length,
      messages: sent.refs,
    });
    return sent;
  }

  /** Old-result compaction made visible: an event whenever results newly go out as stubs. */
  private stubRoutinely(options: { messages: readonly Message[]; iteration: number }): void {
    const known = new Set(this.view.stubSince.keys());
    const sent = this.build(options.messages, options.iteration);
    const fresh = [...sent.stubs].filter(([id]) => !known.has(id));
    if (fresh.length === 0) return;
    const after = this.meter.measure(sent.messages);
    this.step({
      iteration: options.iteration,
      step: 'old_results',
      trigger: 'routine',
      ok: true,
      before: after + this.savedBy(fresh),
      after,
      messagesBefore: sent.messages.length,
      messagesAfter: sent.messages.length,
      stubbed: fresh,
      reason: `tool results over ${this.options.recovery.context.oldResultMinChars} characters older than ${this.options.recovery.context.keepRecentIterations} turns go as stubs`,
    });
  }

  /** The waterfall for one overflow recovery: each rung in order until the copy fits under the threshold. */
  private async waterfall(options: {
    messages: readonly Message[];
    iteration: number;
    attempt: number;
  }): Promise<void> {
    const { messages, iteration, attempt } = options;
    const fits = (): boolean =>
      this.meter.measure(this.build(messages, iteration).messages) <= this.threshold();
    microCompact(this.host, { messages, iteration, attempt });
    if (fits()) return;
    const summary = await summarizeHistory(this.host, { messages, iteration, trigger: 'overflow', attempt });
    if (fits()) return;
    hardTrim(this.host, {
      messages,
      iteration,
      attempt,
      local: summary === 'failed',
      floor: this.config.trimFloor,
    });
  }

  private reactiveSpent = false;

  /** s11's reactive compact stands in for the waterfall when only it is on. */
  private get reactive(): boolean {
    return this.config.reactive && !this.config.waterfall;
  }

  private step(
    options: Omit<CompactionRecord, 'stubbed'> & { stubbed: ReadonlyArray<readonly [string, number]> },
  ): void {
    const stubbed = options.stubbed.map(([id, chars]) => ({
      callId: id,
      tool: this.origins.tool(id),
      chars,
      iteration: this.origins.iteration(id) ?? options.iteration,
    }));
    const kept = options.ok ? this.cacheKept() : undefined;
    const record =
      kept === undefined
        ? options
        : { ...options, cacheKept: kept, reason: `${options.reason}; ${cacheNote(kept)}` };
    emitCompaction(this.options.emit, { ...record, stubbed });
  }

  /** The messages being prepared and the copy the last request sent: what a step is compared against. */
  private current: { messages: readonly Message[]; iteration: number } | undefined;
  private lastSent: readonly Message[] | undefined;

  /**
   * With prompt caching on: how many messages of the last request open the copy as it stands
   * now unchanged, when a step changed one of them (undefined when it changed none of them).
   */
  private cacheKept(): number | undefined {
    const { current, lastSent } = this;
    if (!this.options.recovery.cache.promptCaching || !current || !lastSent) return undefined;
    const now = this.build(current.messages, current.iteration).messages;
    let k = 0;
    while (k < lastSent.length && k < now.length && sameMessage(now[k]!, lastSent[k]!)) k++;
    return k < lastSent.length ? k : undefined;
  }

  private recordBreaker(iteration: number, transition: BreakerTransition): void {
    emitBreaker(this.options.emit, iteration, transition);
  }

  /** Tokens the stubs of these results save, at the meter's scale. */
  private savedBy(stubs: ReadonlyArray<readonly [string, number]>): number {
    return stubs.reduce(
      (sum, [, chars]) => sum + Math.max(0, Math.ceil(chars / 4) - estimateText(stubText(chars))),
      0,
    );
  }

  private emit(body: EventBody): void {
    this.options.emit(body);
  }
}

function taskText(messages: readonly Message[]): string {
  const first = messages[0];
  return first ? first.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') : '';
}

/** The same message as sent: the same object, or the same parts (a summary note is rebuilt per copy). */
function sameMessage(a: Message, b: Message): boolean {
  return a === b || (a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts));
}

/** What a step that changed the last request's messages does to the vendor's prompt cache, in words. */
function cacheNote(kept: number): string {
  return kept === 0
    ? 'invalidates the cached prefix after the system prompt: the next request can read only the tools and the system prompt from the cache'
    : `invalidates the cached prefix after message ${kept}: the next request can read at most the tools, the system prompt and ${kept} message${kept === 1 ? '' : 's'} from the cache`;
}
