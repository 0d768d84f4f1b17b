import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { Dialect, FaultAction, FaultPlan, FaultWhen } from '@/lib/protocol';
import { withFaults, type FaultInjection } from '../with-faults';
import { cannedSseFetch } from './canned-fetch';
import { loadFixture, type FixtureName } from './fixtures';

export interface SdkRun {
  /** Every item the SDK yielded (Anthropic events / OpenAI chunks). */
  items: Array<Record<string, unknown>>;
  /** What the SDK threw, at the request or mid-iteration. */
  error?: unknown;
  /** Where it threw: before any item ('request') or while iterating ('stream'). */
  thrownAt?: 'request' | 'stream';
  injections: FaultInjection[];
  clock: VirtualClock;
  innerCalls: number;
}

/**
 * Drives one streaming request through a real vendor SDK over withFaults over a canned
 * vendor stream, on a virtual clock, and records what the SDK surfaced.
 */
export async function runThroughSdk(options: {
  dialect: Exclude<Dialect, 'responses'>;
  action?: FaultAction;
  when?: FaultWhen;
  fixture?: FixtureName;
  /** Abort the request this many virtual ms after it starts (a watchdog stand-in). */
  abortAfterMs?: number;
  lineEnding?: 'lf' | 'crlf';
  chunkBytes?: number;
  seed?: number;
}): Promise<SdkRun> {
  const { dialect } = options;
  const clock = new VirtualClock();
  const fixture =
    options.fixture ?? (dialect === 'anthropic' ? 'anthropic-thinking-text-tool' : 'openai-chat-text-tool');
  const inner = cannedSseFetch({
    sse: loadFixture(fixture),
    dialect,
    ...(options.lineEnding ? { lineEnding: options.lineEnding } : {}),
    ...(options.chunkBytes ? { chunkBytes: options.chunkBytes } : {}),
  });
  const plan: FaultPlan = {
    rules: options.action
      ? [{ id: 'r1', enabled: true, when: options.when ?? { kind: 'always' }, action: options.action }]
      : [],
    tools: [],
  };
  const injections: FaultInjection[] = [];
  const faulted = withFaults({
    fetch: inner,
    dialect,
    plan: () => plan,
    clock,
    random: createRandom(options.seed ?? 7),
    onInject: (info) => injections.push(info),
  });

  const abort = new AbortController();
  if (options.abortAfterMs !== undefined) {
    void clock
      .sleep(options.abortAfterMs)
      .then(() => abort.abort(new DOMException('stream idle timeout', 'TimeoutError')));
  }

  const run: SdkRun = { items: [], injections, clock, innerCalls: 0 };
  let stream: AsyncIterable<unknown>;
  try {
    stream = await openStream({ dialect, fetch: faulted, signal: abort.signal });
  } catch (error) {
    return { ...run, error, thrownAt: 'request', innerCalls: inner.calls };
  }
  try {
    for await (const item of stream) run.items.push(item as Record<string, unknown>);
  } catch (error) {
    return { ...run, error, thrownAt: 'stream', innerCalls: inner.calls };
  }
  return { ...run, innerCalls: inner.calls };
}

async function openStream(options: {
  dialect: Dialect;
  fetch: typeof fetch;
  signal: AbortSignal;
}): Promise<AsyncIterable<unknown>> {
  const { fetch, signal } = options;
  if (options.dialect === 'anthropic') {
    const client = new Anthropic({ apiKey: 'k', baseURL: 'http://x', fetch, maxRetries: 0, logLevel: 'off' });
    return client.messages.create(
      {
        model: 'claude-loop-lab-test',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'weather?' }],
        stream: true,
      },
      { signal },
    );
  }
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://x', fetch, maxRetries: 0, logLevel: 'off' });
  return client.chat.completions.create(
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather?' }], stream: true },
    { signal },
  );
}
