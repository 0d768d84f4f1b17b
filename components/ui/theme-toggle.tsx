'use client';

import { useEffect, useState } from 'react';

type Theme = 'system' | 'light' | 'dark';
const KEY = 'loop-lab-theme';
const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };

/** Cycles system → light → dark; the choice (only the theme) is kept in localStorage. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>('system');

  useEffect(() => {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark') setTheme(saved);
  }, []);

  const change = () => {
    const next = NEXT[theme];
    setTheme(next);
    if (next === 'system') {
      localStorage.removeItem(KEY);
      delete document.documentElement.dataset.theme;
    } else {
      localStorage.setItem(KEY, next);
      document.documentElement.dataset.theme = next;
    }
  };

  return (
    <button
      type="button"
      onClick={change}
      className="shrink-0 whitespace-nowrap rounded border border-line px-2 py-0.5 text-2xs text-muted hover:text-fg"
      title="Theme: system, light or dark"
      data-testid="theme-toggle"
    >
      theme: {theme}
    </button>
  );
}

/** Runs before paint so a saved theme does not flash. */
export const THEME_SCRIPT = `try{var t=localStorage.getItem('${KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
