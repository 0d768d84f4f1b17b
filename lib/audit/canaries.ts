import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Canary keys: unique strings that stand in for real keys, so any place one turns up is a
 * leak. Fresh each audit, so no file committed to the repository can contain one.
 */
export interface Canaries {
  /** Sent with run requests (the playground's key field). */
  request: string;
  /** ANTHROPIC_API_KEY in the server's environment. */
  envAnthropic: string;
  /** OPENAI_API_KEY in the server's environment. */
  envOpenai: string;
}

/** The random part that ends every canary (hex), unique to one audit. */
const TAG_CHARS = 24;

export function makeCanaries(): Canaries {
  const tag = () => randomBytes(TAG_CHARS / 2).toString('hex');
  return {
    request: `sk-canary-REQUEST-${tag()}`,
    envAnthropic: `sk-ant-canary-ENV-${tag()}`,
    envOpenai: `sk-canary-ENV-OPENAI-${tag()}`,
  };
}

export function allCanaries(canaries: Canaries): string[] {
  return [canaries.request, canaries.envAnthropic, canaries.envOpenai];
}

/**
 * How many times any canary occurs in a text, in the forms a leak could take: as is, written
 * backwards, percent-encoded, hex, base64 (the aligned encoding, and the core at each other
 * alignment), and in parts: each half of its random tag on its own, forwards and backwards, so a
 * key split in two anywhere (across two streamed deltas) still counts — one half is whole in one
 * of the parts; and split into any number of pieces by characters a key never holds (`|`, spaces,
 * line breaks as text or as JSON escapes): the text with those taken out is searched again.
 */
export function countCanaries(text: string, canaries: readonly string[]): number {
  let count = 0;
  for (const canary of canaries) {
    for (const form of leakForms(canary)) count += occurrences(text, form);
  }
  // Split by separators: found only once they are taken out (so a whole leak is not counted twice).
  for (const stripped of [
    text.replace(/[^A-Za-z0-9_-]+/g, ''),
    text.replace(/(?:\\[nrtbf"\\/]|[^A-Za-z0-9_-])+/g, ''),
  ]) {
    for (const canary of canaries) {
      for (const form of [canary, reverse(canary)])
        count += Math.max(0, occurrences(stripped, form) - occurrences(text, form));
    }
  }
  return count;
}

function reverse(text: string): string {
  return [...text].reverse().join('');
}

function leakForms(canary: string): string[] {
  const bytes = Buffer.from(canary);
  const tag = canary.slice(-TAG_CHARS);
  const forms = new Set([
    canary,
    reverse(canary),
    encodeURIComponent(canary),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ]);
  // A whole canary holds both halves of its tag too, so a whole leak counts more than once.
  const halves = [tag.slice(0, TAG_CHARS / 2), tag.slice(TAG_CHARS / 2)];
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    forms.add(encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((shift + bytes.length) / 3) * 4));
  }
  return [...forms, ...halves, ...halves.map(reverse)];
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Every file under a folder, read as latin1 so any byte sequence compares. */
export function scanFolder(options: { dir: string; canaries: readonly string[] }): {
  files: number;
  bytes: number;
  hits: number;
} {
  let files = 0;
  let bytes = 0;
  let hits = 0;
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const content = fs.readFileSync(full);
        files += 1;
        bytes += content.length;
        hits += countCanaries(content.toString('latin1'), options.canaries);
      }
    }
  };
  if (fs.existsSync(options.dir)) walk(options.dir);
  return { files, bytes, hits };
}
