import { RunConfigSchema, vendorRows } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';
import { launchRun } from './launch-run';

export interface WarmUpReport {
  /** Wall time the warm-up took (ms): time no run's clock counts. */
  wallMs: number;
  steps: string[];
}

let warming: Promise<WarmUpReport> | undefined;

/**
 * Pays a fresh process's one-time costs before any real-clock run starts its clock: building
 * the tokenizer's first count (the simulated vendors count every request with it), and one run on the
 * virtual clock through each simulated vendor and its SDK (first-call compilation of the SDK's
 * stream parser, the vendor, the engine). Without it the first run after a server start
 * reports this work as model latency — times the time scale, so seconds at 0.05. Once per
 * process; every caller shares the same promise.
 */
export function warmUp(): Promise<WarmUpReport> {
  warming ??= (async () => {
    const started = performance.now();
    const steps: string[] = [];
    countTokens('warm up the tokenizer');
    steps.push('tokenizer');
    // The first simulated vendor of each wire format: each SDK stream parser warmed once.
    const wires = new Map<string, string>();
    for (const row of vendorRows()) if (row.simulated && !wires.has(row.wire)) wires.set(row.wire, row.id);
    for (const vendor of wires.values()) {
      const config = RunConfigSchema.parse({
        clock: 'virtual',
        provider: { vendor },
        budgets: { maxIterations: 1 },
      });
      await launchRun({ runId: `warm-up-${vendor}`, config, onEvent: () => undefined }).done;
      steps.push(vendor);
    }
    return { wallMs: performance.now() - started, steps };
  })();
  return warming;
}
