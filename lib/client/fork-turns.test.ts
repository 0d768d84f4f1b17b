import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { forkableTurns as fromLog } from '@/lib/trajectory';
import { forkableTurns } from './fork-turns';
import { foldRawEvents } from './reduce-run-event';
import { initialRunViewState } from './run-view-state';

const events = fs
  .readFileSync(fileURLToPath(new URL('./fixtures/recovering-run.jsonl', import.meta.url)), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as RunEvent)
  // The fixture leaves turn 2's reply out of its llm_call; a live run records it (the call of call_2).
  .map((e) =>
    e.event === 'llm_call' && e.iteration === 2 && !e.message
      ? { ...e, message: { role: 'assistant' as const, parts: [{ type: 'tool_call' as const, id: 'call_2', name: 'edit_file', argsText: '{"path":"src/sum.js"}', args: { path: 'src/sum.js' } }] } }
      : e,
  );

describe('the turns the fork control offers', () => {
  it('are the turns the server can continue from (the same answer from the folded view as from the log)', () => {
    const view = foldRawEvents(initialRunViewState(), events);
    const offered = forkableTurns(view);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).toEqual(fromLog(events));
    // The final answer is never offered: there is nothing to continue from it.
    expect(offered).not.toContain(view.turns.at(-1)!.iteration);
  });

  it('a live run does not offer the turn still running', () => {
    const cut = events.findIndex((e) => e.event === 'iteration_start' && e.iteration === 3);
    const view = foldRawEvents(initialRunViewState(), events.slice(0, cut + 1));
    expect(forkableTurns(view)).toEqual([1, 2]);
    expect(fromLog(events.slice(0, cut))).toEqual([1, 2]);
    expect(forkableTurns(view)).not.toContain(3);
  });
});
