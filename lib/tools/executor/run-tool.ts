import type { Clock, Random } from '@/lib/clock';
import type { ToolFault } from '@/lib/protocol';
import type { AnyTool } from '../registry';
import type { Workspace } from '../types';
import { inflateOutput, raiseFaults, slowDelayMs } from './tool-faults';

export interface RunOutcome {
  status: 'ok' | 'error' | 'timeout';
  content: string;
  isError: boolean;
}

/** A thrown value as result text: its class name and message, which is what the model needs. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name || 'Error'}: ${error.message}`;
  return `Error: ${String(error)}`;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Runs one validated call under its tool faults. A throw becomes an is_error outcome; with a
 * timeout, the clock races the tool and the loser is aborted through the tool's signal (so a
 * slow tool's sleep really stops). Never rejects.
 */
export async function runTool(options: {
  tool: AnyTool;
  args: unknown;
  workspace: Workspace;
  clock: Clock;
  random: Random;
  signal: AbortSignal;
  faults: readonly ToolFault[];
  timeoutMs?: number;
}): Promise<RunOutcome> {
  const { tool, args, workspace, clock, random, signal, faults, timeoutMs } = options;
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });

  const work = (async (): Promise<RunOutcome> => {
    const delay = slowDelayMs(faults);
    if (delay > 0) await clock.sleep(delay, controller.signal);
    if (controller.signal.aborted) throw controller.signal.reason;
    raiseFaults({ faults, tool: tool.name, random });
    const result = await tool.run(args, { workspace, clock, random, signal: controller.signal });
    const content = inflateOutput({ content: result.content, faults });
    return { status: result.isError ? 'error' : 'ok', content, isError: result.isError };
  })();
  work.catch(() => undefined);

  const timer = new AbortController();
  try {
    if (timeoutMs === undefined) return await work;
    const deadline = clock.sleep(timeoutMs, timer.signal).then(
      () => TIMED_OUT,
      () => undefined,
    );
    const winner = await Promise.race([work, deadline]);
    if (typeof winner === 'object') return winner;
    controller.abort(new Error(`${tool.name} timed out`));
    return {
      status: 'timeout',
      isError: true,
      content:
        `Error: ${tool.name} timed out after ${timeoutMs} ms and was stopped. ` +
        'Try a smaller request (a narrower path or pattern, a smaller limit) or a different approach.',
    };
  } catch (error) {
    if (signal.aborted) return { status: 'error', isError: true, content: `Error: the run was aborted while ${tool.name} was running.` };
    return { status: 'error', isError: true, content: describeThrown(error) };
  } finally {
    timer.abort();
    signal.removeEventListener('abort', forward);
  }
}
