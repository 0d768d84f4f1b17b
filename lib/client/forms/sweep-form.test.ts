import { describe, expect, it } from 'vitest';
import { countSweepJobs, CreateSweepRequestSchema, SweepGridSchema } from '@/lib/protocol';
import { formRunCount, gridFromForm, INITIAL_SWEEP_FORM } from './sweep-form';

describe('sweep form', () => {
  it('builds a grid the API accepts, with the run count the form shows', () => {
    const form = {
      ...INITIAL_SWEEP_FORM,
      mechanismsOff: ['watchdog' as const],
      faults: ['none', 'overloaded-x3', 'tool-throw'],
      seedTo: 10,
    };
    const grid = SweepGridSchema.parse(gridFromForm(form));
    expect(countSweepJobs(grid)).toBe(formRunCount(form));
    expect(formRunCount(form)).toBe(2 * 2 * 3 * 10);
    expect(grid.faultPlans.map((f) => [f.id, f.plan.rules.length, f.plan.tools.length])).toEqual([
      ['none', 0, 0],
      ['overloaded-x3', 1, 0],
      ['tool-throw', 0, 1],
    ]);
    expect(grid.configurations.map((c) => c.label)).toEqual(['CodeSmith', 'naive (no recovery)']);
  });

  it('sends a real endpoint with its limits, models and prompt sets as axes, and the key beside the grid, never in it', () => {
    const form = {
      ...INITIAL_SWEEP_FORM,
      presets: ['codesmith' as const],
      faults: ['none'],
      vendors: [],
      endpoint: {
        enabled: true,
        vendor: 'openai-compatible' as const,
        baseUrl: 'http://localhost:11434/v1',
        apiKey: ' sk-form-key-1234 ',
        requestsPerMin: '30',
        tokensPerMin: '',
      },
      models: 'gpt-4o-mini, deepseek-chat',
      promptSets: ['terse@1', 'terse@2'],
      costCapUsd: '2.5',
      seedTo: 3,
    };
    const { apiKeys, ...grid } = CreateSweepRequestSchema.parse(gridFromForm(form));
    expect(apiKeys).toEqual({ endpoint: 'sk-form-key-1234' });
    expect(JSON.stringify(grid)).not.toContain('sk-form-key');
    expect(grid.endpoints).toEqual([
      {
        id: 'endpoint',
        vendor: 'openai-compatible',
        baseUrl: 'http://localhost:11434/v1',
        keySource: 'request',
        requestsPerMin: 30,
      },
    ]);
    expect(grid.promptSets).toEqual([
      { name: 'terse', version: 1 },
      { name: 'terse', version: 2 },
    ]);
    expect(grid.costCapUsd).toBe(2.5);
    expect(countSweepJobs(grid)).toBe(formRunCount(form));
    expect(formRunCount(form)).toBe(2 * 2 * 3);
  });
});
