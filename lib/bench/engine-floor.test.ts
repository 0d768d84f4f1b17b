import { describe, expect, it } from 'vitest';
import type { StreamPart } from '@/lib/providers/types';
import { assertSameBodies, freshRequests, providerOnly, recordEngineRequests } from './engine-floor';
import { BENCH_TURNS, recordBenchRun } from './record-run';

describe('the engine floor (provider layer alone)', () => {
  it("sends the engine run's request bodies byte for byte and reads every response to its finish", async () => {
    const exchanges = await recordBenchRun();
    const recorded = await recordEngineRequests(exchanges);
    expect(recorded.requests).toHaveLength(BENCH_TURNS + 1);
    // The engine's bodies are the recorded ones the bare SDK side sends (which adds only `stream`).
    recorded.bodies.forEach((body, i) =>
      expect(JSON.parse(body)).toEqual({ ...(exchanges[i]!.body as object), stream: true }),
    );
    await expect(assertSameBodies(recorded, exchanges)).resolves.toBeUndefined();

    const parts: StreamPart['type'][][] = recorded.requests.map(() => []);
    const seen = await providerOnly({
      requests: freshRequests(recorded.requests),
      exchanges,
      onPart: (i, part) => parts[i]!.push(part.type),
    });
    expect(seen).toBe(parts.flat().length);
    for (const types of parts) {
      expect(types[0]).toBe('connected');
      expect(types.at(-1)).toBe('finish');
      expect(types).toContain('text-delta');
    }
    // Every turn but the last reads a file.
    expect(parts.slice(0, BENCH_TURNS).map((types) => types.includes('tool-call-start'))).toEqual([
      ...Array(BENCH_TURNS - 1).fill(true),
      false,
    ]);
  });

  it('gives each run new message objects, shared between requests as in the run', async () => {
    const recorded = await recordEngineRequests(await recordBenchRun());
    const [a, b] = freshRequests(recorded.requests);
    expect(a!.messages[0]).not.toBe(recorded.requests[0]!.messages[0]);
    expect(a!.messages[0]).toEqual(recorded.requests[0]!.messages[0]);
    expect(b!.messages[0]).toBe(a!.messages[0]);
    expect(recorded.requests[1]!.messages[0]).toBe(recorded.requests[0]!.messages[0]);
  });

  it('fails loudly when a request differs from the run', async () => {
    const exchanges = await recordBenchRun();
    const recorded = await recordEngineRequests(exchanges);
    const requests = [...recorded.requests];
    requests[7] = { ...requests[7]!, maxTokens: requests[7]!.maxTokens + 1 };
    await expect(assertSameBodies({ ...recorded, requests }, exchanges)).rejects.toThrow(/request 8 differs/);
    await expect(assertSameBodies({ ...recorded, requests: requests.slice(1) }, exchanges)).rejects.toThrow(
      /sent 50 requests, the engine's run 51/,
    );
  });
});
