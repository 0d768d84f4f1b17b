import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from './contrast';
import {
  MARK_ACCENTS,
  MARK_SURFACES,
  SERIES_COUNT,
  SERIES_SHAPES,
  seriesColour,
  seriesShape,
} from './mark-palette';

/** The `--c-*` hex values declared in the first block of globals.css that follows `selector`. */
function themeBlock(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(selector);
  if (at < 0) throw new Error(`no ${selector} block in globals.css`);
  const open = css.indexOf('{', at);
  const body = css.slice(open, css.indexOf('}', open));
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/--c-([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;/g)) out[m[1]!] = m[2]!;
  return out;
}

const css = readFileSync(join(__dirname, '../../../app/globals.css'), 'utf8');
const themes = {
  light: themeBlock(css, ':root {\n  color-scheme: light;'),
  dark: themeBlock(css, ':root[data-theme="dark"]'),
  'dark (system)': themeBlock(css, ':root:not([data-theme="light"])'),
};
const marks = [...MARK_ACCENTS, ...Array.from({ length: SERIES_COUNT }, (_, i) => `series-${i}`)];

describe('mark palette (WCAG 1.4.11: 3:1 for meaningful graphics)', () => {
  it('declares every mark colour and surface in every theme', () => {
    for (const [name, t] of Object.entries(themes)) {
      for (const k of [...marks, ...MARK_SURFACES]) expect(t[k], `${name} --c-${k}`).toMatch(/^#/);
    }
  });

  it('keeps the system dark theme and the toggled dark theme the same', () => {
    expect(themes['dark (system)']).toEqual(themes.dark);
  });

  for (const [name, t] of Object.entries(themes)) {
    it(`reads every mark at 3:1 or more on every surface, ${name}`, () => {
      const failing: string[] = [];
      for (const mark of marks) {
        for (const surface of MARK_SURFACES) {
          const ratio = contrastRatio(t[mark]!, t[surface]!);
          if (ratio < 3) failing.push(`--c-${mark} on --c-${surface}: ${ratio.toFixed(2)}`);
        }
      }
      expect(failing).toEqual([]);
    });
  }

  it('gives neighbouring series a different colour and a different shape', () => {
    for (let i = 0; i < 20; i++) {
      expect(seriesColour(i)).not.toBe(seriesColour(i + 1));
      expect(seriesShape(i)).not.toBe(seriesShape(i + 1));
    }
    const pairs = new Set(
      Array.from(
        { length: SERIES_COUNT * SERIES_SHAPES.length },
        (_, i) => `${seriesColour(i)}|${seriesShape(i)}`,
      ),
    );
    expect(pairs.size).toBe(SERIES_COUNT * SERIES_SHAPES.length);
    expect(seriesColour(3)).toBe('var(--c-series-3)');
  });
});
