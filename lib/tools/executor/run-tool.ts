import type { Clock, Random } from '@/lib/clock';
import type { ToolFault } from '@/lib/protocol';
import type { SlotShare } from '../check/fair-slots';
import type { AnyTool } from '../registry';
import type { Workspace } from '../types';
import { inflateOutput, raiseFaults, slowDelayMs } from './tool-faults';

export interface RunOutcome {
  status: 'ok' | 'error' | 'timeout';
  content: string;
  isError: boolean;
  /** The machine could not do the tool's work: the run ends (see ToolResult). */
  hostOverloaded?: string;
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
 * slow tool's sleep really stops). Never rejects. Without a timeout the tool is given the
 * run's own signal; the deadline is a plain clock timer, cancelled when the tool wins, so a
 * call makes at most one AbortController (Node makes each one transferable, which costs).
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
  share?: SlotShare;
}): Promise<RunOutcome> {
  const { tool, args, workspace, clock, random, signal, faults, timeoutMs, share } = options;
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const forward = (): void => controller?.abort(signal.reason);
  if (controller) {
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
  }
  const toolSignal = controller?.signal ?? signal;

  const work = (async (): Promise<RunOutcome> => {
    const delay = slowDelayMs(faults);
    if (delay > 0) await clock.sleep(delay, toolSignal);
    if (toolSignal.aborted) throw toolSignal.reason;
    raiseFaults({ faults, tool: tool.name, random });
    const result = await tool.run(args, {
      workspace,
      clock,
      random,
      signal: toolSignal,
      ...(share !== undefined ? { share } : {}),
    });
    const content = inflateOutput({ content: result.content, faults });
    return {
      status: result.isError ? 'error' : 'ok',
      content,
      isError: result.isError,
      ...(result.hostOverloaded !== undefined ? { hostOverloaded: result.hostOverloaded } : {}),
    };
  })();
  work.catch(() => undefined);

  let cancelDeadline: (() => void) | undefined;
  try {
    if (timeoutMs === undefined || !controller) return await work;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      cancelDeadline = clock.setTimer(timeoutMs, () => resolve(TIMED_OUT));
    });
    const winner = await Promise.race([work, deadline]);
    if (winner !== TIMED_OUT) return winner;
    controller.abort(new Error(`${tool.name} timed out`));
    return {
      status: 'timeout',
      isError: true,
      content:
        `Error: ${tool.name} timed out after ${timeoutMs} ms and was stopped. ` +
        'Try a smaller request (a narrower path or pattern, a smaller limit) or a different approach.',
    };
  } catch (error) {
    if (signal.aborted)
      return {
        status: 'error',
        isError: true,
        content: `Error: the run was aborted while ${tool.name} was running.`,
      };
    return { status: 'error', isError: true, content: describeThrown(error) };
  } finally {
    cancelDeadline?.();
    if (controller) signal.removeEventListener('abort', forward);
  }
}
