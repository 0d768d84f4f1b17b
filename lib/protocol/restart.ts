import type { RunConfig } from './config';
import { isSimulated } from './vendors';

/**
 * Why a run cut off by a server restart cannot be taken up again faithfully, or undefined when
 * it can. A run is resumed by re-executing its stored log from its config and seed (the
 * durable-execution way: lib/server/resume-runs.ts), so it must be a run whose every input is
 * in its config: the virtual (or paced) clock, simulated vendors only, nothing a person decided
 * while it ran and nothing loaded from outside the config.
 */
export function restartRefusal(config: RunConfig, run: { forked: boolean }): string | undefined {
  if (config.provider.keySource === 'request')
    return (
      'it brought its own API key, which lived only in the memory of the process it was sent to and went with it; ' +
      'start a new run, or fork this one from its last turn, with the key'
    );
  if (config.clock === 'real')
    return 'it ran on the real clock: its waits and deadlines were wall time, which a re-execution cannot reproduce';
  const vendors = [
    config.provider.vendor,
    ...(config.recovery.fallback?.vendor ? [config.recovery.fallback.vendor] : []),
    ...config.swaps.map((swap) => swap.vendor),
  ];
  const real = vendors.find((vendor) => !isSimulated(vendor));
  if (real !== undefined)
    return `it called a real vendor (${real}), whose answers went with the process: asked again, it would answer differently`;
  if (config.replay)
    return 'it was served from a recording, which the restart does not load again: only runs on simulated vendors are resumed';
  if (config.strategy) return 'it ran a strategy of its own, code the server does not load';
  if (config.taskDir) return 'it ran a task folder of its own, which the server does not load';
  if (config.pause && (config.pause.breakpoints.length > 0 || config.pause.approval))
    return 'it had breakpoints or tool approval: what a person decided while it ran is not in its config, so a re-execution cannot make the same decisions';
  if (run.forked)
    return 'it is a fork: its start was planned from its parent when it began, and the restart does not plan it again';
  return undefined;
}
