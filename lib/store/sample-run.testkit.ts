import {
  foldTotals,
  resolveRecovery,
  RunConfigSchema,
  stampEvent,
  type EventBody,
  type EventOf,
  type RunConfig,
  type RunEvent,
} from '@/lib/protocol';
import type { RowTotals } from './run-store';

/**
 * A small, valid run log for tests of the store, the JSONL round trip and the server:
 * run_start, one iteration with an llm_call and a tool_call, then terminate.
 */
export function sampleConfig(): RunConfig {
  return RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
}

export function sampleRunEvents({ runId }: { runId: string }): RunEvent[] {
  const config = sampleConfig();
  const bodies: (EventBody & { ts: number })[] = [
    {
      ts: 0,
      event: 'run_start',
      config,
      recovery: resolveRecovery(config.preset),
      scenario: { id: config.scenario, title: 'Fix a failing test', task: 'Make the test pass.' },
      tools: ['read_file'],
      vendor: 'sim-anthropic',
      model: 'claude-sim-sonnet',
      clock: 'virtual',
      time_scale: 1,
    },
    { ts: 0, event: 'iteration_start', iteration: 0 },
    {
      ts: 1200,
      event: 'llm_call',
      iteration: 0,
      input_tokens: 1000,
      output_tokens: 100,
      usd_so_far: 0.0045,
      stop_reason: 'tool_use',
      latency_ms: 1200,
    },
    {
      ts: 1210,
      event: 'tool_call',
      iteration: 0,
      tool: 'read_file',
      args: { path: 'src/sum.ts' },
      result_chars: 42,
      is_error: false,
      latency_ms: 10,
    },
    { ts: 1300, event: 'iteration_start', iteration: 1 },
    {
      ts: 2500,
      event: 'llm_call',
      iteration: 1,
      input_tokens: 1200,
      output_tokens: 50,
      usd_so_far: 0.0088,
      stop_reason: 'end_turn',
      latency_ms: 1200,
    },
    {
      ts: 2500,
      event: 'terminate',
      iteration: 1,
      reason: 'end_turn',
      complete: true,
      usd_so_far: 0.0088,
      input_tokens: 2200,
      output_tokens: 150,
    },
  ];
  return bodies.map(({ ts, ...body }, seq) => stampEvent(body, { run_id: runId, seq, ts }));
}

/**
 * Events [from, to) of a log as one batch for the store, with the run's totals after its last
 * event, as a run's log hands them on: `store.appendEvents({ runId, ...batchOf(events, 0, 3) })`.
 */
export function batchOf(
  events: readonly RunEvent[],
  from = 0,
  to = events.length,
): { events: RunEvent[]; totals: RowTotals } {
  return { events: events.slice(from, to), totals: foldTotals(events.slice(0, to)) };
}

/** The two writes of a run store that keeping a log takes; either backend's, synchronous or not. */
interface LogWriter {
  createRun(run: { id: string; config: RunConfig }): unknown;
  appendEvents(batch: { runId: string; events: RunEvent[]; totals: RowTotals }): unknown;
}

/** Stores a finished run's log as the server does: created, then appended batch by batch. */
export async function keepLog(store: LogWriter, id: string, events: RunEvent[], batch = 5): Promise<void> {
  const config = events.find((e): e is EventOf<'run_start'> => e.event === 'run_start')!.config;
  await store.createRun({ id, config });
  for (let i = 0; i < events.length; i += batch) {
    const part = batchOf(events, i, i + batch);
    await store.appendEvents({
      runId: id,
      events: part.events.map((e) => ({ ...e, run_id: id })),
      totals: part.totals,
    });
  }
}
