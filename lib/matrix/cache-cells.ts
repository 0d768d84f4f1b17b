import {
  resolveRecovery,
  type CassetteExchange,
  type PresetId,
  type RunConfigInput,
  type RunEvent,
} from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { dialectOf, RunConfigSchema } from '@/lib/protocol';
import type { MatrixVendor } from './baseline';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';

/**
 * The fault matrix's prompt-cache row: on each vendor × preset an unfaulted run long enough for
 * the vendor's cache (1,024 tokens and more), its cache figures checked against what the vendor
 * reported on the wire. Caching on (the preset's `cache.promptCaching`): later requests read from
 * the cache, and every `llm_call`'s cache_read_tokens / cache_write_tokens and input_tokens are the
 * response's own usage figures; off: nothing read or written, and no breakpoint sent.
 */
export interface CacheCell {
  vendor: MatrixVendor;
  preset: PresetId;
  promise: { cached: boolean; rule: string };
}

export interface CacheCellResult {
  cell: CacheCell;
  /** Requests whose vendor usage was compared, and how many of them read from the cache. */
  observed: { compared: number; reads: number; ending: string };
  passed: boolean;
  failures: string[];
  wallMs: number;
}

/** Every vendor × preset, each promising what its preset's cache setting says. */
export function buildCacheCells(): CacheCell[] {
  return MATRIX_VENDORS.flatMap((vendor) =>
    MATRIX_PRESETS.map((preset): CacheCell => {
      const cached = resolveRecovery(preset).cache.promptCaching;
      return {
        vendor,
        preset,
        promise: cached
          ? {
              cached,
              rule: 'promptCaching on: later requests read the prefix from the cache, and each llm_call states the vendor’s own cache figures',
            }
          : {
              cached,
              rule: 'promptCaching off: no breakpoint sent, nothing read from or written to a cache',
            },
      };
    }),
  );
}

/** The run: the default scenario's task, long enough to pass the vendors' minimum cacheable prefix. */
export function cacheCellConfig(cell: CacheCell): RunConfigInput {
  return {
    provider: { vendor: cell.vendor },
    preset: cell.preset,
    clock: 'virtual',
    seed: 3,
    scenario: 'fix-failing-test',
    faults: { rules: [], tools: [] },
  };
}

/** What one response said about its prompt and the cache, read from its own bytes. */
interface VendorUsage {
  /** The whole prompt, as the loop counts it (Anthropic: input + cache read + cache write). */
  prompt: number;
  read: number;
  written: number;
}

const lastNumber = (text: string, key: string): number | undefined => {
  const all = [...text.matchAll(new RegExp(`"${key}":(\\d+)`, 'g'))];
  return all.length > 0 ? Number(all.at(-1)![1]) : undefined;
};

/** A response body's usage, in the dialect's own fields. */
export function vendorUsage(vendor: MatrixVendor, body: string): VendorUsage | undefined {
  const wire = dialectOf(vendor);
  if (wire === 'anthropic') {
    const input = lastNumber(body, 'input_tokens');
    if (input === undefined) return undefined;
    const read = lastNumber(body, 'cache_read_input_tokens') ?? 0;
    const written = lastNumber(body, 'cache_creation_input_tokens') ?? 0;
    return { prompt: input + read + written, read, written };
  }
  const prompt = lastNumber(body, wire === 'openai' ? 'prompt_tokens' : 'input_tokens');
  if (prompt === undefined) return undefined;
  return { prompt, read: lastNumber(body, 'cached_tokens') ?? 0, written: 0 };
}

/** Runs one cache cell through the real runtime, recording the traffic beneath the SDK, and checks it. */
export async function runCacheCell(cell: CacheCell): Promise<CacheCellResult> {
  const started = performance.now();
  const events: RunEvent[] = [];
  const exchanges: CassetteExchange[] = [];
  await launchRun({
    runId: `matrix-cache-${cell.vendor}-${cell.preset}`,
    config: RunConfigSchema.parse(cacheCellConfig(cell)),
    onEvent: (e) => events.push(e),
    onExchange: (x) => exchanges.push(x),
  }).done;
  const failures = checkCacheRun(cell, events, exchanges);
  const calls = events.filter((e) => e.event === 'llm_call');
  const last = events.at(-1);
  const ending =
    last?.event !== 'terminate'
      ? 'no terminate'
      : last.reason === 'end_turn' && last.complete
        ? 'completes'
        : last.reason;
  if (ending !== 'completes') failures.push(`ended ${ending}, not completed`);
  const reads = calls.filter((c) => c.event === 'llm_call' && (c.cache_read_tokens ?? 0) > 0).length;
  return {
    cell,
    observed: { compared: calls.length, reads, ending },
    passed: failures.length === 0,
    failures,
    wallMs: performance.now() - started,
  };
}

/** Each llm_call against the response it came from (in request order: the run has no faults, so every request answers). */
export function checkCacheRun(
  cell: CacheCell,
  events: readonly RunEvent[],
  exchanges: readonly CassetteExchange[],
): string[] {
  const failures: string[] = [];
  const calls = events.flatMap((e) => (e.event === 'llm_call' ? [e] : []));
  const answered = [...exchanges].filter((x) => x.response?.status === 200).sort((a, b) => a.n - b.n);
  if (answered.length !== calls.length)
    failures.push(`${calls.length} llm_call events for ${answered.length} answered requests`);
  calls.forEach((call, i) => {
    const exchange = answered[i];
    if (!exchange?.response) return;
    const usage = vendorUsage(cell.vendor, exchange.response.chunks.map((c) => c.text ?? '').join(''));
    const at = `request ${exchange.n} (turn ${call.iteration ?? '?'})`;
    if (!usage) return void failures.push(`${at}: no usage in the vendor's response`);
    if (call.input_tokens !== usage.prompt)
      failures.push(`${at}: input_tokens ${call.input_tokens}, the vendor reported ${usage.prompt}`);
    if ((call.cache_read_tokens ?? 0) !== usage.read)
      failures.push(
        `${at}: cache_read_tokens ${call.cache_read_tokens ?? 0}, the vendor reported ${usage.read}`,
      );
    if ((call.cache_write_tokens ?? 0) !== usage.written)
      failures.push(
        `${at}: cache_write_tokens ${call.cache_write_tokens ?? 0}, the vendor reported ${usage.written}`,
      );
    if (!cell.promise.cached && (usage.read > 0 || usage.written > 0))
      failures.push(`${at}: caching is off, yet the vendor read ${usage.read} and wrote ${usage.written}`);
    if (!cell.promise.cached && exchange.request.body.includes('"cache_control"'))
      failures.push(`${at}: caching is off, yet a cache_control breakpoint was sent`);
  });
  if (cell.promise.cached && !calls.some((c) => (c.cache_read_tokens ?? 0) > 0))
    failures.push('caching is on, yet no request read from the cache');
  return failures;
}
