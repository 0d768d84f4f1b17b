import type { Random } from '@/lib/clock';
import { DEFAULT_PACING, type Pacing } from './types';

/** The waits of one response, drawn once so a response plays at one steady speed. */
export interface ResponsePacing {
  headersMs: number;
  firstTokenMs: number;
  /** Run time to stream `tokens` output tokens. */
  forTokens(tokens: number): number;
}

function draw(random: Random, [min, max]: [number, number]): number {
  return min + random.next() * (max - min);
}

export function drawPacing(options: { random: Random; pacing?: Partial<Pacing> }): ResponsePacing {
  const pacing = { ...DEFAULT_PACING, ...options.pacing };
  const { random } = options;
  const headersMs = Math.round(draw(random, pacing.headersMs));
  const firstTokenMs = Math.round(draw(random, pacing.firstTokenMs));
  const rate = Math.max(1, draw(random, pacing.tokensPerSecond));
  return { headersMs, firstTokenMs, forTokens: (tokens) => Math.round((tokens * 1000) / rate) };
}
