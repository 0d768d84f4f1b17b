/**
 * What counts as a secret, and the forms one is looked for in: the one rule behind every
 * redaction (the run log's, lib/runtime/redact-secrets.ts, and a recording's, lib/cassettes/
 * redact-pieces.ts). Zod-free and Node-free.
 */

/** What stands in for a secret wherever one was found. */
export const REDACTED = '[redacted]';

/**
 * Strings shorter than this are not treated as secrets. Real vendor keys are 40+ characters;
 * a short "key" is a placeholder for a local server that ignores keys ("ollama", "x"), and
 * replacing a short string would rewrite ordinary text — a key equal to "terminate" must not
 * rename the terminate event. Sixteen characters of a real key never occur by accident.
 */
export const MIN_SECRET_LENGTH = 16;

/**
 * A string of lowercase letters and underscores is a word of the protocol (an event name, a
 * terminate reason), never a vendor key: real keys carry digits, capitals or dashes. Treating
 * such a word as a secret would rewrite the log's own structure.
 */
const PROTOCOL_WORD = /^[a-z_]+$/;

/** The characters a vendor key is made of: any other character between two of its pieces splits it. */
const KEY_CHAR = /[A-Za-z0-9_-]/;

/**
 * What may stand between two characters of a split key, as a regular expression: a JSON
 * escape (a key split by a line break, as a recorded body holds it) or one character a key
 * never contains.
 */
const SEPARATOR = String.raw`(?:\\(?:[bfnrt"\\/]|u[0-9A-Fa-f]{4})|[^A-Za-z0-9_-])`;

/**
 * The most separators between two characters of a key that still count as one split key
 * (`sk-ant-…|…`, `… \n …`, `", "`); a key's characters spread further apart are ordinary text.
 */
export const MAX_SEPARATORS = 8;

/** The secrets worth looking for: each trimmed, long enough, not a word of the protocol, once. */
export function secretsToSeek(secrets: Iterable<string | undefined>): string[] {
  const out = new Set<string>();
  for (const raw of secrets) {
    const secret = raw?.trim();
    if (secret && secret.length >= MIN_SECRET_LENGTH && !PROTOCOL_WORD.test(secret)) out.add(secret);
  }
  return [...out];
}

/** A key written backwards: what a careless or hostile upstream can send back. */
export function reversedKey(key: string): string {
  return [...key].reverse().join('');
}

/**
 * The spellings every redaction looks for, as is or split: each secret worth seeking
 * (secretsToSeek) and the same secret written backwards, once each.
 */
export function spelledKeys(secrets: Iterable<string | undefined>): string[] {
  return [...new Set(secretsToSeek(secrets).flatMap((key) => [key, reversedKey(key)]))];
}

/** Environment variables whose values are secrets even when no vendor reads them. */
const SECRET_VAR = /(?:^|_)(?:API_KEY|AUTH_TOKEN|ACCESS_TOKEN|SECRET_KEY|CLIENT_SECRET)$/;

/** Whitespace and control characters: what splits a key that cannot be one header value. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const NOT_IN_A_HEADER = /[\s\x00-\x1f\x7f]+/;

/**
 * The secrets a run could leak: the key sent with its request and every key in the given
 * environment — the vendors' own key variables (`keyVars`) and anything named like a key or
 * token. A key with a line break or a space inside cannot travel as one header value; an error
 * quoting where it broke would quote each part on its own, so each part is a secret too.
 */
export function secretsOf(options: {
  apiKey?: string | undefined;
  env: Record<string, string | undefined>;
  keyVars: readonly string[];
}): string[] {
  const names = Object.keys(options.env).filter(
    (name) => options.keyVars.includes(name) || SECRET_VAR.test(name),
  );
  const values = names.map((name) => options.env[name]);
  const secrets = [options.apiKey, ...values].filter((s): s is string => typeof s === 'string');
  return secrets.flatMap((s) => [s, ...s.split(NOT_IN_A_HEADER).filter((part) => part !== s)]);
}

/** True for a character a key is made of (a separator is any other). */
export function isKeyChar(char: string): boolean {
  return KEY_CHAR.test(char);
}

/**
 * A regular expression source matching `key` as is or split: its characters in order, with up
 * to MAX_SEPARATORS separators (characters a key never contains, or JSON escapes) between any
 * two of them. Matching is linear: a separator can never be mistaken for a key's character.
 */
export function splitKeyPattern(key: string): string {
  const between = `${SEPARATOR}{0,${MAX_SEPARATORS}}`;
  return [...key].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join(between);
}

const NOT_KEY_CHARS = /[^A-Za-z0-9_-]+/g;
const ESCAPES_OR_NOT_KEY_CHARS = /(?:\\(?:[bfnrt"\\/]|u[0-9A-Fa-f]{4})|[^A-Za-z0-9_-])+/g;

/**
 * A quick test to make before the split pattern is searched for: does the text, with its
 * separators taken out (single characters, and JSON escapes as well when it has a backslash),
 * contain one of the keys with theirs taken out? Only then can it hold one, split or not, and
 * most texts are passed over at the speed of a plain search.
 */
export function splitKeyTest(keys: readonly string[]): (text: string) => boolean {
  const skeletons = [...new Set(keys.map((key) => key.replace(NOT_KEY_CHARS, '')))];
  const unescapedSkeletons = [...new Set(keys.map((key) => key.replace(ESCAPES_OR_NOT_KEY_CHARS, '')))];
  return (text) => {
    const plain = text.replace(NOT_KEY_CHARS, '');
    if (skeletons.some((key) => plain.includes(key))) return true;
    if (!text.includes('\\')) return false;
    const unescaped = text.replace(ESCAPES_OR_NOT_KEY_CHARS, '');
    return unescapedSkeletons.some((key) => unescaped.includes(key));
  };
}

/**
 * How much of `key` the text from `at` to its end spells, split as splitKeyPattern allows:
 * 'whole' when the whole key is there, 'prefix' when the text ends partway through it (what
 * follows could complete it), 'no' when it cannot be the start of the key.
 */
export function spellsKeyFrom(text: string, at: number, key: string): 'whole' | 'prefix' | 'no' {
  let k = 0;
  let p = at;
  while (p < text.length) {
    if (text[p] === key[k]) {
      k += 1;
      p += 1;
      if (k === key.length) return 'whole';
      continue;
    }
    if (k === 0) return 'no';
    // Separators between two characters of the key: at most MAX_SEPARATORS of them.
    let run = 0;
    while (p < text.length && run < MAX_SEPARATORS && text[p] !== key[k]) {
      const escape = text[p] === '\\' ? jsonEscapeLength(text, p) : 0;
      if (escape > 0) p += escape;
      else if (!isKeyChar(text[p]!)) p += 1;
      else return 'no';
      run += 1;
    }
    if (p < text.length && text[p] !== key[k]) return 'no';
  }
  return 'prefix';
}

/** The length of the JSON escape at `at` (`\n`, `\u00e9`), 1 for a backslash whose escape the text does not yet hold whole, or 0. */
function jsonEscapeLength(text: string, at: number): number {
  const next = text[at + 1];
  if (next === undefined) return 1;
  if ('bfnrt"\\/'.includes(next)) return 2;
  if (next === 'u') {
    const hex = text.slice(at + 2, at + 6);
    if (/^[0-9A-Fa-f]{4}$/.test(hex)) return 6;
    if (/^[0-9A-Fa-f]*$/.test(hex) && at + 6 > text.length) return text.length - at;
  }
  return 1;
}
