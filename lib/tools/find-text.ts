/**
 * Exact substring search in time linear in text + needle (Knuth–Morris–Pratt). V8's
 * `indexOf` is Boyer–Moore–Horspool, which some needles turn quadratic: a 100,001-character
 * `old_string` of `a`s with one `b` in the middle, against a file of a million `a`s, took
 * 50 s of the server's only thread. The model picks both strings, so edit_file uses this.
 */
export function findText(options: { text: string; needle: string; from?: number; limit: number }): number[] {
  const { text, needle, from = 0, limit } = options;
  const found: number[] = [];
  const m = needle.length;
  if (m === 0 || limit <= 0) return found;
  const fail = failureTable(needle);
  let k = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== c) k = fail[k - 1]!;
    if (needle.charCodeAt(k) === c) k++;
    if (k === m) {
      found.push(i - m + 1);
      if (found.length >= limit) return found;
      k = fail[k - 1]!;
    }
  }
  return found;
}

/** fail[i]: length of the longest proper prefix of needle[0..i] that is also its suffix. */
function failureTable(needle: string): Int32Array {
  const fail = new Int32Array(needle.length);
  let k = 0;
  for (let i = 1; i < needle.length; i++) {
    const c = needle.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== c) k = fail[k - 1]!;
    if (needle.charCodeAt(k) === c) k++;
    fail[i] = k;
  }
  return fail;
}
