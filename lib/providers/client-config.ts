import { serverEnv, type EnvSource } from '@/lib/config/server-env';
import { vendorRow, vendorRows, type Vendor, type VendorRow } from '@/lib/protocol';
import { ADDRESS_KIND_WORDS, addressKindOf } from './base-url-address';

/** The run-request field a provider problem is about; the API's 400 names it. */
export type ProviderConfigField = 'provider.baseUrl' | 'apiKey';

/** A provider that cannot be built as configured; the message says what to set, never a key. */
export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
  readonly field: ProviderConfigField;

  constructor(field: ProviderConfigField, message: string) {
    super(message);
    this.field = field;
  }
}

export interface ClientConfig {
  baseURL: string;
  apiKey: string;
  /** Where the key came from: the environment's key only ever goes to a URL the environment names. */
  keyFrom: 'request' | 'env' | 'sim';
}

const SIM_KEY = 'sim-key';

/** The server environment variables that route keys (documented in README and docs/config.md). */
export const ALLOWED_BASE_URLS_VAR = 'LOOP_LAB_ALLOWED_BASE_URLS';
export const CUSTOM_BASE_URLS_VAR = 'LOOP_LAB_CUSTOM_BASE_URLS';
/** Hosts (`host` or `host:port`) on this machine or a private network that a run request may aim at with its own key; the server's key never goes there. */
export const REQUEST_HOSTS_VAR = 'LOOP_LAB_ALLOWED_REQUEST_HOSTS';

export interface ResolveClientConfigOptions {
  vendor: Vendor;
  /** provider.baseUrl from the run config: chosen by whoever sent the request. */
  baseUrl?: string;
  /** A key sent with the run request. */
  apiKey?: string;
  /** The server's environment (processEnv()): keys, base URLs, the allow-list and the switch. */
  env: EnvSource;
}

/**
 * Where a client points and which key it sends — the one key-routing rule. The server's
 * environment key goes only to its vendor's official endpoint or to a base URL the
 * environment itself names (the SDK's *_BASE_URL variable or LOOP_LAB_ALLOWED_BASE_URLS): a
 * URL picked by a request must come with a key picked by the same request, or anyone who can
 * reach the API could have the server send its key to their own host.
 * LOOP_LAB_CUSTOM_BASE_URLS=off refuses request-chosen URLs altogether. Only http(s) URLs.
 * A request-chosen URL may not point at a cloud metadata service or a link-local address, nor
 * at this machine or a private network unless the environment names it (the URL in
 * LOOP_LAB_ALLOWED_BASE_URLS or *_BASE_URL, or its host in LOOP_LAB_ALLOWED_REQUEST_HOSTS): the
 * server would fetch it and show the answer in the run (base-url-address.ts).
 * A simulated vendor never reads the real vendors' environment at all. Throws
 * ProviderConfigError naming the request field to fix; messages never contain a key.
 */
export function resolveClientConfig(options: ResolveClientConfigOptions): ClientConfig {
  const { vendor, env } = options;
  const settings = serverEnv(env);
  const requestUrl = nonEmpty(options.baseUrl);
  const requestKey = nonEmpty(options.apiKey);
  const row = vendorRow(vendor);
  if (row.simulated) {
    if (requestUrl) normalizeBaseUrl(requestUrl, 'provider.baseUrl');
    return {
      baseURL: requestUrl ?? row.baseUrl ?? '',
      apiKey: requestKey ?? SIM_KEY,
      keyFrom: requestKey ? 'request' : 'sim',
    };
  }

  const spec = realSpec(row);
  const envUrl = nonEmpty(env[spec.urlVar]);
  const trusted = new Set<string>();
  if (spec.officialUrl) trusted.add(normalizeBaseUrl(spec.officialUrl, spec.urlVar));
  if (envUrl) trusted.add(normalizeBaseUrl(envUrl, spec.urlVar));
  for (const entry of settings.allowedBaseUrls) {
    trusted.add(normalizeBaseUrl(entry, ALLOWED_BASE_URLS_VAR));
  }

  const requested = requestUrl ? normalizeBaseUrl(requestUrl, 'provider.baseUrl') : undefined;
  if (requested && !trusted.has(requested)) {
    if (!settings.customBaseUrls) {
      throw new ProviderConfigError(
        'provider.baseUrl',
        `this server does not accept base URLs from a run request (${CUSTOM_BASE_URLS_VAR}=off); leave provider.baseUrl out, ` +
          `or use one the server names (${spec.urlVar} or ${ALLOWED_BASE_URLS_VAR})`,
      );
    }
    const target = new URL(requested);
    const kind = addressKindOf(target.hostname);
    if (kind === 'metadata' || kind === 'link-local') {
      throw new ProviderConfigError(
        'provider.baseUrl',
        `provider.baseUrl ${requested} is ${ADDRESS_KIND_WORDS[kind]}: a run request may never point the server there`,
      );
    }
    if (kind !== undefined && !listed(settings.allowedRequestHosts, target)) {
      throw new ProviderConfigError(
        'provider.baseUrl',
        `provider.baseUrl ${requested} is ${ADDRESS_KIND_WORDS[kind]}, which a run request may point the server at only when the ` +
          `server's environment names it: set ${ALLOWED_BASE_URLS_VAR}=${requested} (or ${spec.urlVar}) where the server starts, ` +
          `or ${REQUEST_HOSTS_VAR}=${target.host} to let runs that bring their own key use it (a local model server such as Ollama)`,
      );
    }
    if (!requestKey) {
      throw new ProviderConfigError(
        'apiKey',
        `provider.baseUrl ${requested} is not a URL this server's environment names, so the server's own key is never sent there: ` +
          `send a key with the run (apiKey), or have the server name the URL in ${spec.urlVar} or ${ALLOWED_BASE_URLS_VAR}`,
      );
    }
    return { baseURL: requested, apiKey: requestKey, keyFrom: 'request' };
  }

  const baseURL = requested ?? (envUrl ? normalizeBaseUrl(envUrl, spec.urlVar) : spec.officialUrl);
  if (baseURL === undefined) {
    throw new ProviderConfigError(
      'provider.baseUrl',
      `vendor "${vendor}" needs a base URL: set provider.baseUrl in the run config (with a key) or ${spec.urlVar} in the server ` +
        'environment (for example https://api.deepseek.com or http://localhost:11434/v1)',
    );
  }
  if (requestKey) return { baseURL, apiKey: requestKey, keyFrom: 'request' };
  const envKey = nonEmpty(env[spec.keyVar]);
  if (envKey === undefined) {
    const local = row.keyHint ? ` (${row.keyHint})` : '';
    throw new ProviderConfigError(
      'apiKey',
      `no API key for vendor "${vendor}": set ${spec.keyVar} in the server environment or send a key with the run${local}`,
    );
  }
  return { baseURL, apiKey: envKey, keyFrom: 'env' };
}

/**
 * Every base URL the environment names for a real vendor: the official endpoints, the SDKs'
 * *_BASE_URL variables and LOOP_LAB_ALLOWED_BASE_URLS. A malformed entry is left out (the
 * client's own check names it).
 */
export function environmentBaseUrls(env: Record<string, string | undefined>): string[] {
  const urls = new Set<string>();
  const add = (raw: string | undefined, source: string): void => {
    const value = nonEmpty(raw);
    if (!value) return;
    try {
      urls.add(normalizeBaseUrl(value, source));
    } catch {
      // Not a URL: nothing to trust.
    }
  };
  for (const spec of vendorRows()
    .filter((row) => !row.simulated)
    .map(realSpec)) {
    add(spec.officialUrl, spec.urlVar);
    add(env[spec.urlVar], spec.urlVar);
  }
  for (const entry of (env[ALLOWED_BASE_URLS_VAR] ?? '').split(/[\s,]+/)) add(entry, ALLOWED_BASE_URLS_VAR);
  return [...urls];
}

/** A real vendor's variables and official address, from its row (the table requires both variables). */
function realSpec(row: VendorRow): { urlVar: string; keyVar: string; officialUrl?: string } {
  return {
    urlVar: row.baseUrlVar ?? '',
    keyVar: row.keyVar ?? '',
    ...(row.baseUrl ? { officialUrl: row.baseUrl } : {}),
  };
}

/** An http(s) URL without a trailing slash, so equal addresses compare equal. */
function normalizeBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ProviderConfigError(
      'provider.baseUrl',
      `${source} is not a URL: use an http:// or https:// address`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderConfigError(
      'provider.baseUrl',
      `${source} must be an http:// or https:// URL, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) {
    throw new ProviderConfigError(
      'provider.baseUrl',
      `${source} must not carry a user name or password; send a key with the run instead`,
    );
  }
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** Is `url`'s host (with its port, or any port when the entry names none) in the list (or a comma- or space-separated string of one)? */
export function listed(list: string | readonly string[] | undefined, url: URL): boolean {
  const entries = typeof list === 'string' || list === undefined ? (list ?? '').split(/[\s,]+/) : list;
  return entries
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) => entry === url.host || entry === url.hostname);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The SDK's own timeout only covers the wait for response headers and would fire on a slow
 * first byte; stalls are the engine's watchdog's job, so this is set out of the way.
 */
export const SDK_TIMEOUT_MS = 60 * 60 * 1000;
