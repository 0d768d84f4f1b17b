import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { importedConfig } from '@/lib/protocol';
import { RunActions } from './run-actions';
import { RunConfigPanel } from './run-config-panel';

describe('a run imported without a Loop Lab config', () => {
  it('offers neither Re-run nor Open in playground, and says why', () => {
    const html = renderToStaticMarkup(createElement(RunActions, { config: importedConfig() }));
    expect(html).not.toContain('rerun-button');
    expect(html).not.toContain('open-in-playground');
    expect(html).toContain('data-testid="no-config-note"');
    expect(html).toMatch(/No Re-run: imported from a trace that carries no Loop Lab config/);
    const panel = renderToStaticMarkup(createElement(RunConfigPanel, { config: importedConfig() }));
    expect(panel).toContain('not recovered');
    expect(panel).not.toContain('preset naive');
  });
});
