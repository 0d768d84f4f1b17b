import type { PresetId, RunEvent } from '@/lib/protocol';
import { matrixConfig } from './matrix-config';
import { runGuarded } from './run-guarded';

export type MatrixVendor = 'sim-anthropic' | 'sim-openai' | 'sim-openai-responses';

/** What a column's unfaulted run streamed, request by request: where each point can be struck. */
export interface Baseline {
  vendor: MatrixVendor;
  preset: PresetId;
  /** Content kinds each model request streamed, by request number (from 1). */
  kinds: Map<number, Set<'text' | 'tool_args' | 'thinking'>>;
  completed: boolean;
}

/**
 * Runs a column with no faults and records which content each request streamed. A fault
 * placed at a content point targets the first request that streams that content; runs are
 * deterministic, so every request before it is the same in the faulted run.
 */
export async function probeBaseline(options: {
  vendor: MatrixVendor;
  preset: PresetId;
  guardMs: number;
}): Promise<Baseline> {
  const { vendor, preset } = options;
  const run = await runGuarded({
    config: matrixConfig({ vendor, preset }),
    guardMs: options.guardMs,
    runId: `baseline-${vendor}-${preset}`,
  });
  const last = run.events.at(-1);
  return {
    vendor,
    preset,
    kinds: kindsByRequest(run.events),
    completed: last?.event === 'terminate' && last.complete,
  };
}

function kindsByRequest(events: RunEvent[]): Baseline['kinds'] {
  const kinds: Baseline['kinds'] = new Map();
  let current: Set<'text' | 'tool_args' | 'thinking'> | undefined;
  for (const event of events) {
    if (event.event === 'model_request') {
      current = new Set();
      kinds.set(event.request_no, current);
    } else if (event.event === 'content_delta' && event.text.length > 0) {
      current?.add(event.kind);
    }
  }
  return kinds;
}

/** The first request that streams content of a kind, if any does. */
export function firstRequestWith(
  baseline: Baseline,
  kind: 'text' | 'tool_args' | 'thinking',
): number | undefined {
  for (const [requestNo, kinds] of [...baseline.kinds].sort(([a], [b]) => a - b)) {
    if (kinds.has(kind)) return requestNo;
  }
  return undefined;
}
