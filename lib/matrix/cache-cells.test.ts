import { describe, expect, it } from 'vitest';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { RunConfigSchema, type CassetteExchange, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { buildCacheCells, cacheCellConfig, checkCacheRun, runCacheCell } from './cache-cells';

const cells = buildCacheCells();

describe('the prompt-cache row (virtual clock)', () => {
  it('lists every vendor × preset, with the cache on somewhere and off somewhere', () => {
    expect(cells).toHaveLength(MATRIX_VENDORS.length * MATRIX_PRESETS.length);
    expect(new Set(cells.map((c) => c.promise.cached))).toEqual(new Set([true, false]));
  });

  it.each(
    cells.map(
      (cell) =>
        [`${cell.vendor} × ${cell.preset} → ${cell.promise.cached ? 'cached' : 'no cache'}`, cell] as const,
    ),
  )('%s', async (_, cell) => {
    const result = await runCacheCell(cell);
    expect(result.failures, cell.promise.rule).toEqual([]);
    expect(result.observed.compared).toBeGreaterThan(2);
    if (cell.promise.cached) expect(result.observed.reads).toBeGreaterThan(0);
  });

  it('catches an llm_call whose cache figure is not the vendor’s', async () => {
    const cell = cells.find((c) => c.vendor === 'sim-openai-responses' && c.promise.cached)!;
    const events: RunEvent[] = [];
    const exchanges: CassetteExchange[] = [];
    await launchRun({
      runId: 'x',
      config: RunConfigSchema.parse(cacheCellConfig(cell)),
      onEvent: (e) => events.push(e),
      onExchange: (x) => exchanges.push(x),
    }).done;
    expect(checkCacheRun(cell, events, exchanges)).toEqual([]);
    // The same run with one figure changed is caught: the check reads the response bytes, not the event.
    const forged = events.map((e) =>
      e.event === 'llm_call' && (e.cache_read_tokens ?? 0) > 0
        ? { ...e, cache_read_tokens: e.cache_read_tokens! + 128 }
        : e,
    );
    expect(
      checkCacheRun(cell, forged, exchanges).some((f) =>
        /cache_read_tokens \d+, the vendor reported \d+/.test(f),
      ),
    ).toBe(true);
  });
});
