import {
  RunConfigSchema,
  type EventOf,
  type RunConfigInput,
  type RunEvent,
  type RunEventType,
} from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import type { ControlMessage, LaunchOptions } from '@/lib/runtime/types';

/**
 * Runs a config to its terminate event on the virtual clock (unless the config says
 * otherwise) and returns the whole log. `onEvent` may send control messages mid-run.
 */
export async function runToEnd(
  input: Omit<RunConfigInput, 'provider'> & { provider?: RunConfigInput['provider'] },
  options: {
    onEvent?: (event: RunEvent, control: (message: ControlMessage) => void) => void;
    apiKey?: string;
    onVendorRequest?: LaunchOptions['onVendorRequest'];
    runId?: string;
  } = {},
): Promise<RunEvent[]> {
  const config = RunConfigSchema.parse({ clock: 'virtual', provider: { vendor: 'sim-anthropic' }, ...input });
  const events: RunEvent[] = [];
  let control: (message: ControlMessage) => void = () => {};
  const handle = launchRun({
    runId: options.runId ?? 'test-run',
    config,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.onVendorRequest ? { onVendorRequest: options.onVendorRequest } : {}),
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event, control);
    },
  });
  control = (message) => handle.control(message);
  await handle.done;
  return events;
}

/** The events of one type, typed. */
export function ofType<T extends RunEventType>(events: RunEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.event === type);
}

/** The terminate event (every log ends with exactly one). */
export function terminateOf(events: RunEvent[]): EventOf<'terminate'> {
  const last = events.at(-1);
  if (last?.event !== 'terminate') throw new Error(`log does not end with terminate: ${last?.event}`);
  return last;
}
