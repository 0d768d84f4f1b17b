/** One line of a list and how many times it appeared. */
export interface Counted<T> {
  item: T;
  count: number;
}

/**
 * A list with identical entries folded into one, counted (shown "×5"), in the order each
 * first appeared: five identical "thinking block dropped" lines read as one line ×5.
 */
export function countIdentical<T>(
  items: readonly T[],
  key: (item: T) => string = (item) => JSON.stringify(item),
): Counted<T>[] {
  const byKey = new Map<string, Counted<T>>();
  for (const item of items) {
    const k = key(item);
    const seen = byKey.get(k);
    if (seen) seen.count += 1;
    else byKey.set(k, { item, count: 1 });
  }
  return [...byKey.values()];
}
