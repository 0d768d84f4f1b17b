import { readFileSync } from 'node:fs';

export type FixtureName =
  'anthropic-thinking-text-tool' | 'openai-chat-text-tool' | 'deepseek-chat-reasoning';

/** A recorded-shape vendor SSE stream from lib/faults/fixtures (byte-faithful, compact JSON). */
export function loadFixture(name: FixtureName): string {
  return readFileSync(new URL(`../fixtures/${name}.sse`, import.meta.url), 'utf8');
}
