import type { Clock } from '@/lib/clock';
import type { ProviderAdapter } from '@/lib/providers/types';

/**
 * Between a failed response the SDK may retry and its next request (or the end of the call)
 * the SDK is on its own timer, off the run clock: a 1 ms one when the SDK-retry layer took its
 * wait over, its own backoff after a connection error. On the virtual clock that looks like
 * nothing running, and time would jump to the next deadline — the run's time budget — and end a
 * healthy run. So in that gap the clock is held still; the layer's own wait on the run clock
 * comes after the hold is released (this wraps the layer).
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
