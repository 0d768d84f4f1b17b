import { REDACTED, reversedKey, secretsToSeek } from '@/lib/protocol/secret-rule';

/** The shortest piece of a key that a recording looks for on its own. */
export const MIN_PIECE = 8;

/**
 * Removes from a recorded body every piece of a key at least MIN_PIECE characters long. A
 * stream can carry a key split across two records (two content deltas, each a JSON record of
 * its own), which no whole-key search finds in the raw bytes; the run log's split-secret hold
 * rejoins deltas, a recording keeps the bytes, so it looks for the pieces instead — of each key
 * and of each key written backwards. What counts as a key is the run log's rule
 * (lib/protocol/secret-rule.ts).
 */
export function redactPieces(text: string, secrets: readonly string[]): string {
  const keys = secretsToSeek(secrets).flatMap((key) => [key, reversedKey(key)]);
  if (keys.length === 0 || text.length < MIN_PIECE) return text;
  const grams = new Map<string, Array<[key: string, at: number]>>();
  for (const key of keys) {
    for (let at = 0; at + MIN_PIECE <= key.length; at += 1) {
      const gram = key.slice(at, at + MIN_PIECE);
      grams.set(gram, [...(grams.get(gram) ?? []), [key, at]]);
    }
  }
  let out = '';
  let copied = 0;
  for (let p = 0; p + MIN_PIECE <= text.length; ) {
    const found = grams.get(text.slice(p, p + MIN_PIECE));
    if (!found) {
      p += 1;
      continue;
    }
    let longest = 0;
    for (const [key, at] of found) {
      let m = MIN_PIECE;
      while (p + m < text.length && at + m < key.length && text[p + m] === key[at + m]) m += 1;
      longest = Math.max(longest, m);
    }
    out += text.slice(copied, p) + REDACTED;
    p += longest;
    copied = p;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
