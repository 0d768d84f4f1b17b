/**
 * Keys are never persisted (DESIGN.md §6). The config schema has no key field, but a
 * future field or a raw request body must not smuggle one into the store: any property
 * whose name looks like a credential is dropped on the way in.
 */
const SECRET_KEY = /^(api[-_]?key|x[-_]api[-_]key|authorization|auth[-_]?token|access[-_]?token|secret|client[-_]?secret|password|bearer)$/i;

export function isSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

/** A JSON.stringify replacer that drops credential-like properties at any depth. */
export function secretFreeReplacer(key: string, value: unknown): unknown {
  return key !== '' && isSecretKey(key) ? undefined : value;
}

/** Serializes a value with credential-like properties removed. */
export function stringifyWithoutSecrets(value: unknown): string {
  return JSON.stringify(value, secretFreeReplacer);
}
