import { expect } from 'vitest';
import { mostInAnyWindow, type SeenRequest } from './real-endpoint.testkit';

/**
 * What a real-endpoint sweep's limits promise, checked on the requests the counting endpoint saw
 * (lib/sweeps/real-endpoint.testkit.ts): both models and both prompts went, every request carried
 * the sweep's key, more than one minute's limit went and no minute held more than the limit, and
 * after the 429 (the third request) nothing arrived until its Retry-After was over. Times are run
 * time × `scale`, less `jitterMs` for the network. Returns where the 429 was and the pause (wall ms).
 */
export function expectEndpointLimitsHeld(
  seen: readonly SeenRequest[],
  options: {
    key: string;
    systemPrompts: readonly string[];
    scale: number;
    perMin: number;
    retryAfterS: number;
    jitterMs: number;
  },
): { limited: number; pauseMs: number } {
  const { key, systemPrompts, scale, perMin, retryAfterS, jitterMs } = options;
  expect(new Set(seen.map((s) => s.model))).toEqual(new Set(['gpt-4o-mini', 'deepseek-chat']));
  expect(new Set(seen.filter((s) => s.tools).map((s) => s.system))).toEqual(new Set(systemPrompts));
  expect(seen.every((s) => s.authorization === `Bearer ${key}`)).toBe(true);
  expect(seen.length).toBeGreaterThan(2 * perMin);
  expect(mostInAnyWindow(seen, 60_000 * scale, jitterMs)).toBeLessThanOrEqual(perMin);
  const limited = seen.findIndex((s) => s.status === 429);
  expect(limited).toBe(2);
  // (A request the limiter let go before the 429 came back may still arrive just after it.)
  const pauseMs = retryAfterS * 1000 * scale;
  expect(
    seen.filter((s) => s.at > seen[limited]!.at + jitterMs && s.at < seen[limited]!.at + pauseMs - jitterMs),
  ).toEqual([]);
  return { limited, pauseMs };
}
