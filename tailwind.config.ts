import type { Config } from 'tailwindcss';

/**
 * Colours are CSS variables (app/globals.css) so one class works in light and dark. One
 * accent per meaning, used the same way everywhere.
 */
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        bg: 'var(--c-bg)',
        panel: 'var(--c-panel)',
        sunken: 'var(--c-sunken)',
        line: 'var(--c-line)',
        fg: 'var(--c-fg)',
        muted: 'var(--c-muted)',
        faint: 'var(--c-faint)',
        wait: 'var(--c-wait)',
        fail: 'var(--c-fail)',
        ok: 'var(--c-ok)',
        compact: 'var(--c-compact)',
        takeover: 'var(--c-takeover)',
        run: 'var(--c-run)',
        'wait-soft': 'var(--c-wait-soft)',
        'fail-soft': 'var(--c-fail-soft)',
        'ok-soft': 'var(--c-ok-soft)',
        'compact-soft': 'var(--c-compact-soft)',
        'takeover-soft': 'var(--c-takeover-soft)',
        'run-soft': 'var(--c-run-soft)',
      },
      fontFamily: {
        mono: ['ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', 'monospace'],
      },
      fontSize: {
        '2xs': ['0.6875rem', { lineHeight: '1rem' }],
      },
    },
  },
};

export default config;
