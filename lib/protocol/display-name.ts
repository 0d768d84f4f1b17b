import { z } from 'zod';

/**
 * Characters a name shown in lists and headers may not hold: control characters (NUL, escape,
 * line breaks…) and the bidirectional overrides and isolates, which make a name read
 * differently from what it is ("‮txt.exe" shows as "exe.txt").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const WORDS: Record<number, string> = {
  0x00: 'NUL',
  0x09: 'TAB',
  0x0a: 'LINE FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
};

/** "U+202E (RIGHT-TO-LEFT OVERRIDE)" for the first forbidden character of `text`, or undefined. */
export function forbiddenNameCharacter(text: string): string | undefined {
  const found = FORBIDDEN.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = found.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const word =
    WORDS[code] ?? (code < 0x20 || (code >= 0x7f && code <= 0x9f) ? 'a control character' : undefined);
  return word ? `${hex} (${word})` : hex;
}

/** A name a person picks and others read: trimmed, 1–100 characters, no control or bidi-override characters. */
export const DisplayNameSchema = z
  .string()
  .trim()
  .min(1, 'a name: what this set tries, e.g. "terse system prompt"')
  .max(100)
  .superRefine((name, ctx) => {
    const bad = forbiddenNameCharacter(name);
    if (bad)
      ctx.addIssue({
        code: 'custom',
        message: `contains ${bad}; names may not hold control or bidirectional-override characters`,
      });
  });
