import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { runToEnd } from '@/lib/testing/run-to-end';
import { NestedRuns } from './nested-runs';

describe('the sub-agents drawn under a delegate call', () => {
  it("draws each child's turns in its own block, with its end in the parent's words", async () => {
    const log = await runToEnd({
      preset: 'codesmith',
      seed: 3,
      recovery: { tools: { delegate: true } },
      faults: { rules: [], tools: [], subagents: [{ id: 'loop', enabled: true, kind: 'loops', child: 2 }] },
    });
    const view = log.reduce(reduceRunEvent, initialRunViewState());
    const nested = view.turns.find((t) => t.iteration === 1)!.nested!;
    const html = renderToStaticMarkup(createElement(NestedRuns, { runs: nested }));
    const blocks = [
      ...html.matchAll(/data-testid="nested-run" data-child="(c\d)" data-try="1" data-outcome="(\w+)"/g),
    ];
    expect(blocks.map((m) => [m[1], m[2]])).toEqual([
      ['c1', 'answered'],
      ['c2', 'looped'],
      ['c3', 'answered'],
    ]);
    expect(html.match(/data-testid="nested-turn" data-child="c2"/g)).toHaveLength(6);
    expect(html).toContain('guard: blocked read_file');
    expect(html).toContain('c1 answered after 3 requests: its answer is the delegate call&#x27;s result');
  }, 60_000);
});
