import { RunConfigSchema, type RunConfigInput, type RunEvent, type WireExchange } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';

/** The simulated vendor of each wire dialect a run page shows (OpenAI-compatible: the DeepSeek-style server). */
export const WIRE_VENDORS = ['sim-anthropic', 'sim-openai', 'sim-openai-responses', 'sim-deepseek'] as const;

/** A key no recording may keep, in any form. */
export const WIRE_CANARY_KEY = 'sk-test-wire-canary-5d1e8b7a0c93f';

/**
 * A run on the virtual clock with its wire recorded (LaunchOptions.onWire) and the run's key given
 * (the canary unless told), a 429 injected on its first request: the log and the wire, request by request.
 */
export async function runWithWire(
  vendor: string,
  input: Partial<RunConfigInput> = {},
  apiKey = WIRE_CANARY_KEY,
): Promise<{ events: RunEvent[]; wire: WireExchange[] }> {
  const events: RunEvent[] = [];
  const wire: WireExchange[] = [];
  const config = RunConfigSchema.parse({
    clock: 'virtual',
    seed: 7,
    provider: { vendor },
    faults: {
      rules: [
        {
          id: 'rl',
          enabled: true,
          when: { kind: 'requests', numbers: [1] },
          action: { type: 'http_error', status: 429, retryAfterSec: 1 },
        },
      ],
      tools: [],
    },
    ...input,
  });
  await launchRun({
    runId: `wire-${vendor}`,
    config,
    apiKey,
    onEvent: (event) => events.push(event),
    onWire: (exchange) => wire.push(exchange),
  }).done;
  return { events, wire: wire.sort((a, b) => a.n - b.n) };
}
