/**
 * Both SDKs print every stream record they cannot parse straight to console.error (two
 * lines: the data, then the raw chunk). The matrix injects such records on purpose and
 * reports them itself, so while it runs those lines are counted, not printed. Anything else
 * written to console.error passes through. Returns a function that restores console.error
 * and tells how many lines were held back.
 */
export function quietParseNoise(): () => number {
  const original = console.error;
  let held = 0;
  console.error = (...args: unknown[]): void => {
    const first = typeof args[0] === 'string' ? args[0] : '';
    if (first.startsWith('Could not parse message into JSON') || first.startsWith('From chunk')) {
      held += 1;
      return;
    }
    original(...args);
  };
  return () => {
    console.error = original;
    return held;
  };
}
