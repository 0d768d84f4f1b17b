import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRow, type SweepRunMetrics } from '@/lib/protocol';
import { rowsToCsv, runsToCsv, sweepExport, SweepExportSchema } from './sweep-export';

const row: SweepRow = {
  key: 'cs|fix-failing-test|none|sim-anthropic',
  config: 'cs',
  config_label: 'CodeSmith, "tuned", 5 retries',
  scenario: 'fix-failing-test',
  fault_plan: 'none',
  vendor: 'sim-anthropic',
  runs: 5,
  completed: 4,
  completion_rate: 0.8,
  completion_ci: [0.376, 0.964],
  verdict_rate: 0.6,
  verdict_ci: [0.231, 0.882],
  unchecked: 1,
  median_ms: 8712.5,
  p95_ms: 9101,
  mean_tokens: 11093.4,
  mean_usd: 0.0364,
  wasted_tokens: 120.5,
  wasted_usd: 0.0004,
  errors_seen: 1,
};
const run: SweepRunMetrics = {
  job: 3,
  run_id: 'sweep-1-3',
  key: row.key,
  seed: 4,
  complete: false,
  reason: 'retries_exhausted',
  verdict: 'not_done',
  duration_ms: 812.4,
  input_tokens: 600,
  output_tokens: 40,
  usd: 0.0021,
  attempts: 5,
  failed_attempts: 4,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 1,
};

describe('sweep export', () => {
  it('CSV of the table parses back to the same values, quotes and commas included', () => {
    const parsed = Papa.parse<Record<string, string>>(
      rowsToCsv([row, { ...row, config: 'naive', config_label: 'naive\nline' }]),
      {
        header: true,
        skipEmptyLines: true,
      },
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(2);
    const back = parsed.data[0]!;
    expect(back.config_label).toBe(row.config_label);
    expect(parsed.data[1]!.config_label).toBe('naive\nline');
    // The two rates are named for what they count: the loop's terminate, the scenario's check.
    expect(Number(back.loop_completion_rate)).toBe(row.completion_rate);
    expect([Number(back.loop_completion_ci_low), Number(back.loop_completion_ci_high)]).toEqual(
      row.completion_ci,
    );
    expect(Number(back.task_verdict_rate)).toBe(row.verdict_rate);
    expect([Number(back.task_verdict_ci_low), Number(back.task_verdict_ci_high)]).toEqual(row.verdict_ci);
    expect(Number(back.task_unchecked)).toBe(row.unchecked);
    expect(Number(back.median_ms)).toBe(row.median_ms);
    expect(Number(back.wasted_usd)).toBe(row.wasted_usd);
  });

  it('CSV of the runs keeps every run summary field', () => {
    const parsed = Papa.parse<Record<string, string>>(runsToCsv([run]), {
      header: true,
      skipEmptyLines: true,
      dynamicTyping: true,
    });
    expect(parsed.data[0]).toEqual(run);
  });

  it("carries the sub-agents' spend beside the run's own, in both CSVs, only when some run started any", () => {
    const delegating: SweepRunMetrics = {
      ...run,
      subagent_input_tokens: 900,
      subagent_output_tokens: 70,
      subagent_usd: 0.0031,
    };
    const runs = Papa.parse<Record<string, string>>(runsToCsv([delegating, run]), {
      header: true,
      skipEmptyLines: true,
      dynamicTyping: true,
    });
    const fields = runs.meta.fields!;
    expect(fields.slice(fields.indexOf('usd'), fields.indexOf('usd') + 4)).toEqual([
      'usd',
      'subagent_input_tokens',
      'subagent_output_tokens',
      'subagent_usd',
    ]);
    expect(runs.data[0]).toEqual(delegating);
    expect(runs.data[1]!.subagent_usd).toBeNull();
    expect(runsToCsv([run])).not.toContain('subagent');

    const rows = Papa.parse<Record<string, string>>(
      rowsToCsv([{ ...row, mean_subagent_tokens: 970, mean_subagent_usd: 0.0031 }, row]),
      { header: true, skipEmptyLines: true },
    );
    const columns = rows.meta.fields!;
    expect(columns.slice(columns.indexOf('mean_usd'), columns.indexOf('mean_usd') + 3)).toEqual([
      'mean_usd',
      'mean_subagent_tokens',
      'mean_subagent_usd',
    ]);
    expect(Number(rows.data[0]!.mean_subagent_usd)).toBe(0.0031);
    expect(rows.data[1]!.mean_subagent_usd).toBe('');
    expect(rowsToCsv([row])).not.toContain('subagent');
  });

  it('a run stored before verdicts existed exports an empty verdict cell', () => {
    const old = { ...run } as Partial<SweepRunMetrics>;
    delete old.verdict;
    const parsed = Papa.parse<Record<string, string>>(runsToCsv([old as SweepRunMetrics]), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.data[0]!.verdict).toBe('');
  });

  it('JSON export round-trips through its schema', () => {
    const doc = sweepExport({
      sweep: {
        id: 'sweep-1',
        name: 'x',
        created_at: new Date(0).toISOString(),
        status: 'completed',
        total: 1,
        done: 1,
        elapsed_ms: 10,
        runner: 'local',
      },
      grid: SweepGridSchema.parse({ configurations: [{ id: 'cs', preset: 'codesmith' }], seeds: [4] }),
      rows: [row],
      runs: [run],
    });
    expect(SweepExportSchema.parse(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
    // The file says what each rate counts.
    expect(doc.definitions.verdict_rate).toMatch(/task_verdict/);
    expect(doc.definitions.completion_rate).toMatch(/terminate/);
  });
});
