import { REDACTED, spelledKeys } from '@/lib/protocol/secret-rule';

/** The shortest piece of a key that a recording looks for on its own. */
export const MIN_PIECE = 8;

/**
 * Removes from a recorded body every piece of a key at least MIN_PIECE characters long. A
 * stream can carry a key split across two records (two content deltas, each a JSON record of
 * its own), which no whole-key search finds in the raw bytes; the run log's split-secret hold
 * rejoins deltas, a recording keeps the bytes, so it looks for the pieces instead — of each key
 * and of each key written backwards. What counts as a key is the run log's rule
 * (lib/protocol/secret-rule.ts).
 *
 * `keep`: public names the run itself sends (its models). A piece found wholly inside one of
 * them is that name, not a key, and stays: a key that happens to share 8 characters with a
 * model's name would otherwise hide the name in every request and response, and a replay would
 * meet a model called `[redacted]` (whose signed thinking is then another model's). A piece
 * that runs past the name is still removed, name and all.
 */
export function redactPieces(text: string, secrets: readonly string[], keep: readonly string[] = []): string {
  const keys = spelledKeys(secrets);
  if (keys.length === 0 || text.length < MIN_PIECE) return text;
  const grams = new Map<string, Array<[key: string, at: number]>>();
  for (const key of keys) {
    for (let at = 0; at + MIN_PIECE <= key.length; at += 1) {
      const gram = key.slice(at, at + MIN_PIECE);
      grams.set(gram, [...(grams.get(gram) ?? []), [key, at]]);
    }
  }
  const names = keep.filter((k) => k.length >= MIN_PIECE);
  const spans: Array<[start: number, end: number]> = [];
  for (const name of names) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) spans.push([at, at + name.length]);
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
    if (spans.some(([start, end]) => start <= p && p + longest <= end)) {
      p += 1;
      continue;
    }
    out += text.slice(copied, p) + REDACTED;
    p += longest;
    copied = p;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
