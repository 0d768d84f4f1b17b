// By path, not the index: the proxy loads this (lib/server/request-keys.ts) without the SDKs.
import { envKeyVars } from '@/lib/protocol/vendors';
import {
  MAX_SEPARATORS,
  MIN_SECRET_LENGTH,
  REDACTED,
  secretsOf,
  secretsToSeek,
  spelledKeys,
  spellsKeyFrom,
  splitKeyPattern,
  splitKeyTest,
} from '@/lib/protocol/secret-rule';

export { MIN_SECRET_LENGTH, REDACTED };

/** Top-level fields that identify an event rather than describe it: never rewritten. */
const STRUCTURAL = new Set(['event', 'run_id']);

export interface Redactor {
  /** The value with every secret removed from every string in it, property names included. */
  value<T>(value: T): T;
  /** One string with every secret removed. */
  text(text: string): string;
  /**
   * Where the end of a text could be the start of a secret (in any of its forms): the index
   * from which the text must be held back until what follows shows whether it is one, or the
   * text's length when no suffix could be.
   */
  holdFrom(text: string): number;
  /** True when there is nothing to redact (no secret long enough). */
  readonly empty: boolean;
}

/**
 * The secrets a run could leak: the key sent with its request and every key in the server's
 * environment (the vendors' own variables and anything named like a key or token); the rule is
 * lib/protocol/secret-rule.ts (secretsOf).
 */
export function runSecrets(options: {
  apiKey?: string | undefined;
  env: Record<string, string | undefined>;
}): string[] {
  return secretsOf({ ...options, keyVars: envKeyVars() });
}

/**
 * Structural redaction: walks a value before it is serialised and, in every string and every
 * property name (a trace can use a key as a name), replaces each secret in every form a vendor,
 * proxy, SDK or person might give it back — as is, behind `Bearer `, written backwards, split
 * by characters a key never contains (`sk-ant-…|…`, a line break, `", "`), percent-encoded,
 * JSON-escaped inside a quoted body, hex, and base64 (at any byte alignment, so
 * `Basic base64(user:key)` is caught too). What is a secret is lib/protocol/secret-rule.ts.
 * Nothing else changes: numbers and other text stay byte-identical, and objects with no secret
 * are returned as is.
 */
export function createRedactor(options: { secrets: Iterable<string | undefined> }): Redactor {
  const keys = secretsToSeek(options.secrets);
  // Each key forwards and backwards, as is or split; then its encodings, which are not split.
  const spelled = spelledKeys(keys);
  const forms = new Set<string>();
  for (const key of keys)
    for (const form of formsOf(key))
      if (form.length >= MIN_SECRET_LENGTH && !spelled.includes(form)) forms.add(form);
  // Longest first, so a form that contains another is replaced whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  // Longest first, so a key that contains another is replaced whole.
  const split =
    spelled.length === 0
      ? undefined
      : new RegExp(
          spelled
            .sort((a, b) => b.length - a.length)
            .map(splitKeyPattern)
            .join('|'),
          'g',
        );

  const maySplit = splitKeyTest(spelled);
  const shortest = Math.min(...spelled.map((k) => k.length), ...ordered.map((f) => f.length));
  const text = (input: string): string => {
    if (input.length < shortest) return input;
    let out = input;
    if (split && maySplit(out)) out = out.replace(split, REDACTED);
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };

  const walk = (input: unknown, depth: number): unknown => {
    if (typeof input === 'string') return text(input);
    if (input === null || typeof input !== 'object') return input;
    if (Array.isArray(input)) {
      let copy: unknown[] | undefined;
      input.forEach((item, index) => {
        const next = walk(item, depth + 1);
        if (next !== item) (copy ??= input.slice())[index] = next;
      });
      return copy ?? input;
    }
    const entries = Object.entries(input as Record<string, unknown>);
    let copy: Record<string, unknown> | undefined;
    let renamed = false;
    for (const [key, item] of entries) {
      if (depth === 0 && STRUCTURAL.has(key)) continue;
      if (text(key) !== key) renamed = true;
      const next = walk(item, depth + 1);
      if (next !== item) (copy ??= { ...(input as Record<string, unknown>) })[key] = next;
    }
    if (renamed)
      return renameKeys(
        copy ?? (input as Record<string, unknown>),
        depth === 0 ? STRUCTURAL : undefined,
        text,
      );
    return copy ?? input;
  };

  // Where the end of a text could begin a form: an encoding by its first character, a key
  // (either way round, perhaps split) by its own.
  const byFirst = new Map<string, string[]>();
  for (const form of ordered) byFirst.set(form[0]!, [...(byFirst.get(form[0]!) ?? []), form]);
  const keyByFirst = new Map<string, string[]>();
  for (const key of spelled) keyByFirst.set(key[0]!, [...(keyByFirst.get(key[0]!) ?? []), key]);
  const longestForm = ordered[0]?.length ?? 0;
  // A split key spans at most its characters and the separators between them (a JSON escape is up to 6 characters).
  const longestSplit = Math.max(0, ...spelled.map((k) => k.length + (k.length - 1) * MAX_SEPARATORS * 6));
  const holdFrom = (input: string): number => {
    for (
      let at = Math.max(0, input.length - Math.max(longestForm, longestSplit) + 1);
      at < input.length;
      at += 1
    ) {
      const first = input[at]!;
      if (keyByFirst.get(first)?.some((key) => spellsKeyFrom(input, at, key) === 'prefix')) return at;
      const candidates = byFirst.get(first);
      if (!candidates || at < input.length - longestForm + 1) continue;
      const tail = input.slice(at);
      if (candidates.some((form) => form.length > tail.length && form.startsWith(tail))) return at;
    }
    return input.length;
  };

  const empty = spelled.length === 0;
  return {
    empty,
    text: (input) => (empty ? input : text(input)),
    value: <T>(input: T): T => (empty ? input : (walk(input, 0) as T)),
    holdFrom: (input) => (empty ? input.length : holdFrom(input)),
  };
}

/** A copy with each property name redacted (in its place, so the order stays); two names that become one keep a count. */
function renameKeys(
  input: Record<string, unknown>,
  keep: ReadonlySet<string> | undefined,
  text: (s: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(input)) {
    let name = keep?.has(key) ? key : text(key);
    for (let n = 2; name !== key && Object.hasOwn(out, name); n += 1) name = `${text(key)} (${n})`;
    // Defined, not assigned: a name such as __proto__ stays a plain property.
    Object.defineProperty(out, name, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Every encoding of one secret worth looking for. */
function formsOf(secret: string): string[] {
  const forms = [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  ];
  forms.push(JSON.stringify(secret).slice(1, -1));
  const bytes = Buffer.from(secret, 'utf8');
  forms.push(bytes.toString('hex'), bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Drop the characters that depend on the bytes before the secret or after it.
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((shift + bytes.length) / 3) * 4);
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}
