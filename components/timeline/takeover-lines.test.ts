import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CarriedList, DroppedList } from './takeover-lines';

const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const items = (html: string): string[] => [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => text(m[1]!));

describe('the takeover panel’s lists', () => {
  it('shows a dropped line that repeats five times once, with ×5', () => {
    const thinking = { kind: 'thinking', detail: 'thinking block from claude-sim-sonnet dropped' };
    const html = renderToStaticMarkup(
      createElement(DroppedList, {
        dropped: [
          thinking,
          thinking,
          { kind: 'signature', detail: 'signature dropped' },
          thinking,
          thinking,
          thinking,
        ],
      }),
    );
    expect(items(html)).toEqual([
      'thinking thinking block from claude-sim-sonnet dropped ×5',
      'signature signature dropped',
    ]);
  });

  it('counts repeated carried lines the same way', () => {
    const html = renderToStaticMarkup(
      createElement(CarriedList, {
        converted: ['a turn given a placeholder', 'a turn given a placeholder', 'tool ids renamed'],
      }),
    );
    expect(items(html)).toEqual(['a turn given a placeholder ×2', 'tool ids renamed']);
  });
});
