import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import type { RunnableCell } from './cells';
import { checkCell } from './check-cell';
import { MATRIX_FAULTS } from './fault-kinds';
import { matrixConfig } from './matrix-config';
import { runCell } from './run-matrix';
import { runGuarded } from './run-guarded';

const drop = MATRIX_FAULTS.find((f) => f.id === 'drop')!;
const cell: RunnableCell = {
  fault: drop,
  point: 'after_first_event',
  vendor: 'sim-openai',
  preset: 'codesmith',
  status: 'runnable',
  action: { type: 'drop', afterEvents: 1 },
  requestNo: 1,
  promise: { ending: 'completes', path: 'loop_retry', rule: 'test' },
};

describe('checkCell: a broken promise or invariant fails the cell', () => {
  it('passes a run that kept its promise', async () => {
    const result = await runCell(cell);
    expect(result.verdict).toMatchObject({
      passed: true,
      failures: [],
      observed: { ending: 'completes', path: 'loop_retry' },
    });
  });

  it('fails a run whose ending or path differs from the promise', async () => {
    const result = await runCell({
      ...cell,
      promise: { ending: 'model_error', path: 'surfaced', rule: 'wrong on purpose' },
    });
    expect(result.verdict.passed).toBe(false);
    expect(result.verdict.failures).toEqual([
      'ended completes, promised model_error',
      'path loop_retry, promised surfaced',
    ]);
  });

  it('fails a fault that struck at another point than the cell says', async () => {
    const result = await runCell({ ...cell, point: 'mid_text', action: { type: 'drop', afterEvents: 1 } });
    expect(result.verdict.failures.join(' ')).toMatch(
      /no content arrived before a fault meant to strike mid-text/,
    );
  });

  it('fails a log with a gap in seq, a second terminate, or no terminate last', async () => {
    const run = await runGuarded({
      config: matrixConfig({
        vendor: 'sim-openai',
        preset: 'codesmith',
        rule: { id: 'matrix', enabled: true, when: { kind: 'requests', numbers: [1] }, action: cell.action },
      }),
      guardMs: 15_000,
    });
    const gap = run.events.filter((_, i) => i !== 3);
    expect(checkCell(cell, { ...run, events: gap }).failures.join(' ')).toMatch(/not contiguous from 0/);
    const terminate = run.events.at(-1)!;
    const twice: RunEvent[] = [...run.events, { ...terminate, seq: run.events.length }];
    expect(checkCell(cell, { ...run, events: twice }).failures).toContain(
      '2 terminate events (exactly one expected)',
    );
    expect(checkCell(cell, { ...run, events: run.events.slice(0, -1) }).failures.join(' ')).toMatch(
      /not terminate/,
    );
  });

  it('a run that outlives its wall-time guard is a hang, aborted and reported loudly', async () => {
    const run = await runGuarded({
      config: matrixConfig({ vendor: 'sim-anthropic', preset: 'codesmith' }),
      guardMs: 1,
    });
    expect(run.hung).toBe(true);
    expect(run.events.at(-1)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    expect(checkCell(cell, run).failures[0]).toMatch(/^hang/);
  });
});
