import { processEnv } from '@/lib/config/server-env';
import { createRedactor, runSecrets, type Redactor } from '@/lib/runtime/redact-secrets';

/** How many keys sent with requests the server remembers (the newest), to take them out of what it stores and answers. */
export const REMEMBERED_REQUEST_KEYS = 64;

const globalForKeys = globalThis as typeof globalThis & { __loopLabRequestKeys?: string[] };

/**
 * Remembers, in this process's memory only, every key a JSON request body carries — an `apiKey`
 * at any depth (a run's, a swap target's) and each value of an `apiKeys` map (a sweep's) — so
 * that a key sent once is taken out of any text stored or answered later: a prompt set or a
 * cassette that quotes it, an error that would echo it. Called by readJson for every body it
 * parses, before any schema reads it. Never written anywhere.
 *
 * No `server-only` import: proxy.ts redacts its own refusals with knownKeysRedactor.
 */
export function learnRequestKeys(body: unknown): void {
  const found: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > 80) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      if (name === 'apiKey' && typeof item === 'string') found.push(item);
      else if (name === 'apiKeys' && item !== null && typeof item === 'object' && !Array.isArray(item)) {
        for (const key of Object.values(item as Record<string, unknown>))
          if (typeof key === 'string') found.push(key);
      } else walk(item, depth + 1);
    }
  };
  walk(body, 0);
  if (found.length === 0) return;
  const kept = (globalForKeys.__loopLabRequestKeys ??= []);
  for (const key of found) {
    const at = kept.indexOf(key);
    if (at !== -1) kept.splice(at, 1);
    kept.push(key);
  }
  if (kept.length > REMEMBERED_REQUEST_KEYS) kept.splice(0, kept.length - REMEMBERED_REQUEST_KEYS);
}

/** The keys requests have sent this process, newest last. */
export function requestKeys(): readonly string[] {
  return globalForKeys.__loopLabRequestKeys ?? [];
}

/**
 * The redactor for text a person sent that the server stores or answers outside a run's own
 * log — prompt sets, cassette names, notes and files, sweep grids, imported logs, error
 * messages: every key in the server's environment and every key a request has sent it, in
 * every form the run log's redaction knows (lib/runtime/redact-secrets.ts).
 */
export function knownKeysRedactor(): Redactor {
  return createRedactor({
    secrets: [
      ...runSecrets({ env: processEnv() }),
      ...requestKeys().flatMap((apiKey) => runSecrets({ apiKey, env: {} })),
    ],
  });
}
