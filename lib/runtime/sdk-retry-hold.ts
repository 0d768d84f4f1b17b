import type { Clock } from '@/lib/clock';
import type { ProviderAdapter } from '@/lib/providers/types';

/**
 * The SDK's own retries (the sdk-default preset) wait in wall time, off the run clock. On
 * the virtual clock that wait looks like nothing running, and time would jump to the next
 * deadline — the run's time budget — and end a healthy run. So between a failed response the
 * SDK may retry and its next request (or the end of the call) the clock is held still.
 */
export function createSdkRetryHold(clock: Clock): {
  wrapFetch: (inner: typeof fetch) => typeof fetch;
  wrapProvider: (inner: ProviderAdapter) => ProviderAdapter;
} {
  let release: (() => void) | undefined;
  const end = (): void => {
    release?.();
    release = undefined;
  };
  const start = (): void => {
    if (release) return;
    void clock.hold(new Promise<void>((resolve) => (release = resolve)));
  };
  return {
    wrapFetch: (inner) =>
      (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        end();
        try {
          const response = await inner(input, init);
          if (response.status >= 400) start();
          return response;
        } catch (error) {
          start();
          throw error;
        }
      }) as typeof fetch,
    wrapProvider: (inner) => ({
      vendor: inner.vendor,
      dialect: inner.dialect,
      ...(inner.endpoint !== undefined ? { endpoint: inner.endpoint } : {}),
      stream: (request, options) => inner.stream(request, options).finally(end),
    }),
  };
}
