import 'server-only';

/**
 * A vendor error message can echo the key it was sent ("Incorrect API key provided: sk-…").
 * An event that contains the run's key verbatim has it replaced before anyone sees it.
 */
export function redactSecret<T>({ value, secret }: { value: T; secret: string | undefined }): T {
  if (!secret || secret.length < 8) return value;
  const json = JSON.stringify(value);
  if (!json.includes(secret)) return value;
  return JSON.parse(json.split(secret).join('[redacted]')) as T;
}
