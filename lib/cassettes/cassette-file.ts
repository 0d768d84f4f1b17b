import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  CASSETTE_VERSIONS,
  CassetteSchema,
  describeIssues,
  isSimulated,
  MAX_CASSETTE_EXCHANGES,
  missingConfigText,
  type Cassette,
  type CassetteExchange,
  type ClockKind,
  type RunConfig,
  type Vendor,
} from '@/lib/protocol';

/** A cassette file that does not parse: what is wrong, by field. */
export class CassetteFileError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('; '));
  }
}

/** Reads a cassette file's text: JSON, then the versioned schema. */
export function parseCassette(text: string): Cassette {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CassetteFileError([`not JSON: ${(error as Error).message}`]);
  }
  const format = (value as { format?: unknown; version?: unknown } | null)?.format;
  if (format !== CASSETTE_FORMAT) throw new CassetteFileError([`not a Loop Lab cassette (format "${String(format)}", expected "${CASSETTE_FORMAT}")`]);
  const version = (value as { version?: unknown }).version;
  if (!(CASSETTE_VERSIONS as readonly unknown[]).includes(version)) {
    throw new CassetteFileError([`version ${String(version)}: this Loop Lab reads cassette versions ${CASSETTE_VERSIONS.join(' and ')}`]);
  }
  const result = CassetteSchema.safeParse(value);
  if (!result.success) throw new CassetteFileError(describeIssues(result.error));
  return result.data;
}

/** The default bound on a kept recording: the exchanges' JSON size. */
export const MAX_CASSETTE_BYTES = 8 * 1024 * 1024;

/**
 * Keeps a run's exchanges for a cassette, up to a count and a size: past either the recording
 * stops keeping and says so (`truncated`), and the run goes on.
 */
export function createExchangeKeeper(bounds: { maxBytes?: number; maxExchanges?: number } = {}): {
  keep: (exchange: CassetteExchange) => void;
  readonly exchanges: readonly CassetteExchange[];
  readonly truncated: boolean;
} {
  const maxBytes = bounds.maxBytes ?? MAX_CASSETTE_BYTES;
  const maxExchanges = bounds.maxExchanges ?? MAX_CASSETTE_EXCHANGES;
  const exchanges: CassetteExchange[] = [];
  let bytes = 0;
  let truncated = false;
  return {
    keep(exchange) {
      if (truncated) return;
      const size = JSON.stringify(exchange).length;
      if (exchanges.length >= maxExchanges || bytes + size > maxBytes) {
        truncated = true;
        return;
      }
      bytes += size;
      exchanges.push(exchange);
    },
    get exchanges() {
      return exchanges;
    },
    get truncated() {
      return truncated;
    },
  };
}

/**
 * What a cassette does not say about how it was recorded, in words, or undefined when it keeps
 * its config: a version 1 file kept only its traffic.
 */
export function missingConfig(cassette: Pick<Cassette, 'config' | 'version'>): string | undefined {
  return cassette.config ? undefined : missingConfigText(cassette.version);
}

/** A cassette from a run's kept exchanges, in request order, labelled by where its traffic came from, with the config that made them. */
export function buildCassette(options: {
  exchanges: readonly CassetteExchange[];
  vendor: Vendor;
  model: string;
  note: string;
  clock: ClockKind;
  /** The run config the traffic was recorded with, its keys already removed. */
  config: RunConfig;
  truncated?: boolean;
  recordedAt?: Date;
}): Cassette {
  const simulated = isSimulated(options.vendor);
  const label = simulated ? `recorded from Loop Lab's strict simulated vendor ${options.vendor} (a scripted model, not a real one)` : `recorded from ${options.vendor}`;
  return CassetteSchema.parse({
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    source: { kind: simulated ? 'simulated' : 'recorded', vendor: options.vendor, model: options.model, note: `${label}: ${options.note}`.slice(0, 2_000) },
    ...(options.recordedAt ? { recorded_at: options.recordedAt.toISOString() } : {}),
    clock: options.clock,
    config: options.config,
    ...(options.truncated ? { truncated: true } : {}),
    exchanges: [...options.exchanges].sort((a, b) => a.n - b.n),
  });
}
