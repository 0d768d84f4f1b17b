import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { foldRawEvents } from '../run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { swapsSummary } from './describe-config';

const handling = { foreignThinking: 'drop', naive: false } as const;
const swap = (seq: number, iteration: number, cause: 'control' | 'scheduled' | 'fallback'): RunEvent => ({
  run_id: 'r',
  seq,
  ts: seq,
  event: 'swap',
  iteration,
  from_vendor: 'sim-anthropic',
  from_model: 'claude-sim-sonnet',
  to_vendor: 'sim-openai',
  to_model: 'gpt-sim',
  dialect: 'openai-chat',
  cause,
  handling,
  ...(cause === 'control'
    ? {
        recorded_as: {
          atTurn: iteration,
          vendor: 'sim-openai' as const,
          model: 'gpt-sim',
          takeover: handling,
        },
      }
    : {}),
});

describe('the config line names a run’s swaps, from its swap events', () => {
  const config = RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    swaps: [{ atTurn: 5, vendor: 'sim-deepseek', model: '' }],
  });

  it('a swap made by hand, a fallback and a planned swap not yet made', () => {
    const view = foldRawEvents({ ...initialRunViewState(), config }, [
      swap(1, 2, 'control'),
      swap(2, 3, 'fallback'),
    ]);
    expect(swapsSummary(view.config!, view.swaps)).toBe(
      'swaps: turn 2 → sim-openai/gpt-sim (by hand), turn 3 → sim-openai/gpt-sim (cross-vendor fallback), ' +
        'turn 5 → sim-deepseek/deepseek-sim-reasoner (planned, not yet made)',
    );
  });

  it('a planned swap once made is said once, as made', () => {
    const view = foldRawEvents({ ...initialRunViewState(), config }, [swap(1, 5, 'scheduled')]);
    expect(swapsSummary(view.config!, view.swaps)).toBe('swap: turn 5 → sim-openai/gpt-sim (planned)');
  });

  it('nothing for a run that neither swapped nor plans to', () => {
    expect(
      swapsSummary(RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' } }), []),
    ).toBeUndefined();
  });
});
