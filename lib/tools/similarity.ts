/**
 * Edit distance for "did you mean" hints, bounded so a hint can never cost more than a few
 * milliseconds: the model picks the strings (a 50,000-character path, a 30,000-line file),
 * and a plain quadratic distance on them blocked the server for half a minute.
 */

/** Longer strings are compared by their first this-many characters. */
export const MAX_COMPARED_CHARS = 120;

/**
 * Levenshtein distance, or `max + 1` as soon as it is certain to exceed `max`. Only the band
 * of cells within `max` of the diagonal is computed, and a row whose every cell is over `max`
 * ends the work early: O(length × max) instead of O(length²).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const limit = Math.max(0, Math.floor(max));
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const over = limit + 1;
  let prev = new Int32Array(b.length + 1).fill(over);
  let cur = new Int32Array(b.length + 1).fill(over);
  for (let j = 0; j <= Math.min(b.length, limit); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    cur.fill(over);
    if (i <= limit) cur[0] = i;
    let rowMin = cur[0]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost, over);
      cur[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return over;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length]!, over);
}

/**
 * Similarity in [0, 1] (1 for equal strings) of the first MAX_COMPARED_CHARS of each string.
 * Scores below `atLeast` come back as 0 without being computed in full.
 */
export function similarity(a: string, b: string, atLeast = 0): number {
  const x = a.slice(0, MAX_COMPARED_CHARS);
  const y = b.slice(0, MAX_COMPARED_CHARS);
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  const max = Math.floor((1 - atLeast) * longest);
  const distance = boundedDistance(x, y, max);
  return distance > max ? 0 : 1 - distance / longest;
}
