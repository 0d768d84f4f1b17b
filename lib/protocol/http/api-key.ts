import { z } from 'zod';

/**
 * A key sent with a request (a run, a fork, a swap). It travels as an HTTP header value, so
 * it must be one: visible ASCII and inner spaces only. A key with a line break, a control
 * character or a character outside ASCII is refused here, naming the field and the position,
 * never quoting the key — sent on, the SDK's header check would fail and its error, quoting
 * the parts, would reach the log.
 */
export const ApiKeySchema = z
  .string()
  .trim()
  .min(1, 'an empty key: leave apiKey out to use the server environment')
  .max(1000)
  .superRefine((key, ctx) => {
    const at = [...key].findIndex((ch) => ch < ' ' || ch > '~');
    if (at < 0) return;
    const code = key.codePointAt(at)!;
    const what =
      code === 10 || code === 13
        ? 'a line break'
        : code < 32 || code === 127
          ? 'a control character'
          : 'a character outside ASCII';
    ctx.addIssue({
      code: 'custom',
      message: `cannot be sent as a header value: ${what} at character ${at + 1} (a key is visible ASCII)`,
    });
  });
