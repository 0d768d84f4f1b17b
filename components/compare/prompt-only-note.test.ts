import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PromptOnlyNote } from './prompt-only-note';

describe('PromptOnlyNote', () => {
  it('says plainly that the simulated model does not read prompts, which texts differ, and what would show their effect', () => {
    const html = renderToStaticMarkup(
      createElement(PromptOnlyNote, { fields: ['system prompt', 'tool descriptions'], where: 'compare' }),
    );
    expect(html).toContain('The simulated model does not read prompts.');
    expect(html).toContain('differ only in their system prompt and tool descriptions');
    expect(html).toContain('a real endpoint is needed');
    expect(html).toContain('recording');
    const playground = renderToStaticMarkup(
      createElement(PromptOnlyNote, { fields: ['system prompt'], where: 'playground' }),
    );
    expect(playground).toContain('Your system prompt will be sent and billed as tokens');
  });
});
