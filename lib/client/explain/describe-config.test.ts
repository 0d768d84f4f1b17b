import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { describeConfig } from './describe-config';
import { faultPlanFor } from '../forms/fault-catalog';

describe('describeConfig: the config that produced a run, readable', () => {
  it("names a sub-agent fault among the run's faults", () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      faults: {
        rules: [],
        tools: [],
        subagents: [
          { id: 'l', kind: 'loops', child: 2 },
          { id: 'o', kind: 'overruns' },
        ],
      },
    });
    const faults = describeConfig(config).find((l) => l.label === 'faults')!;
    expect(faults).toEqual({
      label: 'faults',
      value: 'sub-agent c2 loops, every sub-agent overruns',
      changed: true,
    });
  });

  it('names every field a person changes and marks what differs from the default', () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-openai', model: 'gpt-sim-mini' },
      preset: 's11',
      recovery: { retry: { maxRetries: 5 } },
      faults: faultPlanFor(['overloaded-x3', 'tool-throw'], 'run_check'),
      seed: 9,
      system: 'Be terse.',
      toolDescriptions: { search: 'Find text.' },
      promptSet: { name: 'terse', version: 2 },
      maxOutputTokens: 900,
      budgets: { maxIterations: 10, maxCostUsd: 0.5, maxRunMs: 120_000, maxAttempts: 50 },
    });
    const lines = Object.fromEntries(describeConfig(config).map((l) => [l.label, l]));
    expect(lines['vendor / model']!.value).toBe('sim-openai / gpt-sim-mini');
    expect(lines.preset!.value).toBe('s11');
    expect(lines.overrides).toEqual({ label: 'overrides', value: 'retry.maxRetries = 5', changed: true });
    expect(lines.faults!.value).toBe('overloaded ×3, tools throw (run_check)');
    expect(lines.seed!.value).toBe('9');
    expect(lines.budgets!.value).toBe('10 turns · $0.5 · 2 min · 50 attempts');
    expect(lines['output cap']!.value).toBe('900 tokens');
    expect(lines['system prompt']).toMatchObject({ value: 'Be terse.', changed: true });
    expect(lines['tool descriptions']!.value).toBe('replaced: search');
    expect(lines['prompt set']!.value).toBe('terse v2');
  });

  it('a default config reads as defaults, nothing marked changed but nothing hidden', () => {
    const lines = describeConfig(RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' } }));
    expect(lines.filter((l) => l.changed)).toEqual([]);
    expect(lines.find((l) => l.label === 'vendor / model')!.value).toBe(
      'sim-anthropic / claude-sim-sonnet (default)',
    );
    expect(lines.find((l) => l.label === 'faults')!.value).toBe('none');
  });

  it('names the clock: real with its scale, virtual, and paced as the virtual run shown at its scale', () => {
    const clock = (input: object) =>
      describeConfig(RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, ...input })).find(
        (l) => l.label === 'clock',
      )!.value;
    expect(clock({ clock: 'real', timeScale: 0.05 })).toBe('real, 20× faster (time scale 0.05)');
    expect(clock({ clock: 'virtual' })).toBe('virtual');
    expect(clock({ clock: 'paced', timeScale: 0.05 })).toBe(
      'paced: the virtual run, shown 20× faster (time scale 0.05)',
    );
  });

  it('says a replayed run comes from a cassette, and what it does off the recording', () => {
    const line = (offRecording: 'stop' | 'simulate') =>
      describeConfig(
        RunConfigSchema.parse({
          provider: { vendor: 'sim-openai' },
          replay: { cassette: 'shipped:explain-project.sim-openai', offRecording },
        }),
      ).find((l) => l.label === 'replayed from');
    expect(line('stop')).toMatchObject({
      value: 'cassette shipped:explain-project.sim-openai; off the recording: the run stops',
      changed: true,
    });
    expect(line('simulate')?.value).toMatch(/goes on on the simulated model$/);
    expect(
      describeConfig(RunConfigSchema.parse({ provider: { vendor: 'sim-openai' } })).some(
        (l) => l.label === 'replayed from',
      ),
    ).toBe(false);
  });

  it("says when the task verdict runs the workspace's own tests instead of the shipped ones", () => {
    const line = (verdict?: { tests: 'shipped' | 'workspace' }) =>
      describeConfig(
        RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, ...(verdict ? { verdict } : {}) }),
      ).find((l) => l.label === 'task verdict');
    expect(line()).toMatchObject({ value: 'runs the scenario’s tests as shipped', changed: false });
    expect(line({ tests: 'workspace' })).toMatchObject({
      value: 'runs the workspace’s own tests (the model’s edits count)',
      changed: true,
    });
  });
});

describe('describeConfig: every vendor the run is configured to use', () => {
  it('lists the swaps, recorded from swaps made by hand or planned, after the first vendor', () => {
    const lines = describeConfig(
      RunConfigSchema.parse({
        provider: { vendor: 'sim-anthropic' },
        swaps: [
          {
            atTurn: 3,
            vendor: 'sim-deepseek',
            model: '',
            takeover: { foreignThinking: 'drop', naive: true },
          },
          { atTurn: 5, vendor: 'sim-openai', model: 'gpt-sim-mini' },
        ],
      }),
    );
    expect(lines.find((l) => l.label === 'swaps')).toEqual({
      label: 'swaps',
      value:
        'turn 3 → sim-deepseek / deepseek-sim-reasoner (default) (naive), turn 5 → sim-openai / gpt-sim-mini',
      changed: true,
    });
  });
});
