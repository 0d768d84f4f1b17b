import { RunConfigSchema, type RunConfigInput, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import type { LaunchOptions } from '@/lib/runtime/types';

export interface GuardedRun {
  events: RunEvent[];
  /** The run did not end within the wall-time guard and was aborted from outside. */
  hung: boolean;
  wallMs: number;
}

/**
 * Runs one config to its end through the real runtime (launchRun: the real engine, the real
 * SDKs, the simulated vendor under the fault wrapper), with a wall-time guard: a run still
 * going after `guardMs` of real time is a hang, is aborted, and is reported as one.
 */
export async function runGuarded(options: {
  config: RunConfigInput;
  guardMs: number;
  runId?: string;
  /** Sees each request body as sent to the vendor. */
  onVendorRequest?: LaunchOptions['onVendorRequest'];
}): Promise<GuardedRun> {
  const config = RunConfigSchema.parse({ clock: 'virtual', ...options.config });
  const events: RunEvent[] = [];
  const started = performance.now();
  const handle = launchRun({
    runId: options.runId ?? 'matrix',
    config,
    onEvent: (event) => events.push(event),
    ...(options.onVendorRequest ? { onVendorRequest: options.onVendorRequest } : {}),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), options.guardMs);
  });
  const first = await Promise.race([handle.done.then(() => 'done' as const), guard]);
  clearTimeout(timer);
  if (first === 'hung') {
    handle.control({ action: 'abort' });
    // An abort that cannot end the run either is still a hang; do not wait on it forever.
    await Promise.race([handle.done, new Promise((resolve) => setTimeout(resolve, 1_000))]);
  }
  return { events, hung: first === 'hung', wallMs: performance.now() - started };
}
