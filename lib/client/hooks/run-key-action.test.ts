import { describe, expect, it } from 'vitest';
import { runKeyAction, type RunKeyPress } from './run-key-action';

const press = (key: string, extra: Partial<RunKeyPress> = {}): RunKeyPress => ({
  key,
  modified: false,
  defaultPrevented: false,
  inField: false,
  inDialog: false,
  inspectorOpen: false,
  ...extra,
});

describe('runKeyAction', () => {
  it('maps the documented shortcuts', () => {
    expect(runKeyAction(press('r'))).toBe('run');
    expect(runKeyAction(press('a'))).toBe('abort');
    expect(runKeyAction(press('i'))).toBe('toggle-inspector');
    expect(runKeyAction(press('j'))).toBe('next-turn');
    expect(runKeyAction(press('k'))).toBe('previous-turn');
    expect(runKeyAction(press('x'))).toBeUndefined();
  });

  it('Escape closes an open inspector before it would abort the run', () => {
    expect(runKeyAction(press('Escape', { inspectorOpen: true }))).toBe('close-inspector');
    expect(runKeyAction(press('Escape'))).toBe('abort');
  });

  it('never takes a key meant for a dialog, a field, a handled popover or a browser shortcut', () => {
    expect(runKeyAction(press('Escape', { inDialog: true }))).toBeUndefined();
    expect(runKeyAction(press('Escape', { defaultPrevented: true }))).toBeUndefined();
    expect(runKeyAction(press('r', { inField: true }))).toBeUndefined();
    expect(runKeyAction(press('r', { modified: true }))).toBeUndefined();
    expect(runKeyAction(press('a', { inDialog: true }))).toBeUndefined();
  });
});
