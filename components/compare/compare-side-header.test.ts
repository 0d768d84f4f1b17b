import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CompareSide } from '@/lib/protocol/http/compare';
import { CompareSideHeader } from './compare-side-header';

const side: CompareSide = {
  id: 'child',
  title: null,
  scenario: 'fix-failing-test',
  vendor: 'sim-openai',
  model: 'gpt-sim-4o',
  preset: 'codesmith',
  seed: 12,
  running: false,
  reason: 'end_turn',
  verdict: 'done',
  eventCount: 120,
  clock: 'virtual',
  timeScale: 1,
  clockTs: 8300,
  forkedFrom: { runId: 'parent', turn: 2 },
  copied: { turns: 2, durationMs: 1498, inputTokens: 1382, outputTokens: 36, usd: 0.004686 },
};

const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe("a side's header", () => {
  it('says a fork is one, of which run and after which turn: the other side when it is the parent', () => {
    const beside = renderToStaticMarkup(
      createElement(CompareSideHeader, { side, letter: 'B', other: { id: 'parent', letter: 'A' } }),
    );
    expect(text(beside)).toContain('fork of run A after turn 2');
    const elsewhere = renderToStaticMarkup(
      createElement(CompareSideHeader, { side, letter: 'B', other: { id: 'someone-else', letter: 'A' } }),
    );
    expect(text(elsewhere)).toContain('fork of parent after turn 2');
    expect(elsewhere).toContain('href="/runs/parent"');
    const notAFork = renderToStaticMarkup(
      createElement(CompareSideHeader, {
        side: { ...side, forkedFrom: null, copied: null },
        letter: 'B',
        other: { id: 'parent', letter: 'A' },
      }),
    );
    expect(text(notAFork)).not.toContain('fork of');
  });
});
