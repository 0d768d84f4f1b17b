/**
 * The vendor table: one row per vendor, with every fact about a vendor the layers above need. Free of zod, so the browser's first load (the playground's
 * pickers, isSimulated) can read it; config.ts builds VendorSchema over it. The layers above
 * read rows and never compare vendor names: the provider factory picks its SDK by `sdk` and
 * `wire`, lib/dialects looks `dialect` up in its registry, lib/sim binds a simulated row to the
 * simulator registered under its id, the client's pickers list the rows.
 *
 * A new vendor is a row here (or `registerVendor(row)` from code that loads before the run, as
 * the toy vendor of lib/runtime/toy-vendor.test.ts does), plus its dialect module when it speaks
 * a new one and, when simulated, its simulator.
 */

/**
 * A vendor's wire format: Anthropic Messages, OpenAI Chat Completions (and the servers that copy
 * it), or OpenAI's Responses API (its error bodies are OpenAI's). Each has one provider adapter.
 */
export type Dialect = 'anthropic' | 'openai' | 'responses';

/** The id of a dialect module in lib/dialects (its registry maps the id to the module). */
export type DialectId = string;

/** Where a run's model traffic goes: the id of a row in the vendor table (VendorSchema checks it). */
export type Vendor = string;

export interface VendorRow {
  id: Vendor;
  /** What the pickers show. */
  label: string;
  /** The dialect module that renders its requests (lib/dialects). */
  dialect: DialectId;
  /**
   * Another dialect for the models whose id starts with `prefix` (first match wins): a server
   * reached by base URL is taken for DeepSeek when its model is a DeepSeek one.
   */
  modelDialects?: readonly { prefix: string; dialect: DialectId }[];
  /** Its wire format; the dialect module must speak the same one. */
  wire: Dialect;
  /** The SDK the provider adapter drives. */
  sdk: 'anthropic' | 'openai';
  /** Simulated: no key, no network; lib/sim holds a simulator registered under the id. */
  simulated: boolean;
  /** The server environment variable holding its key (real vendors). */
  keyVar?: string;
  /** The server environment variable naming its base URL (real vendors). */
  baseUrlVar?: string;
  /**
   * The address used when neither the run nor the environment names one: the official endpoint,
   * or for a simulated vendor the host its simulator answers for (it never resolves). Absent: the
   * run or the environment must give a base URL, and the model is any name the server knows.
   */
  baseUrl?: string;
  /** Added to the "no API key" error. */
  keyHint?: string;
  /** Its default model and the fallback-model mechanism's target. */
  defaultModel: string;
  fallbackModel: string;
}

const SIM_ANTHROPIC_URL = 'http://sim.anthropic.local';
const OPENAI = { keyVar: 'OPENAI_API_KEY', baseUrlVar: 'OPENAI_BASE_URL' } as const;

/** The vendors Loop Lab ships, in the pickers' order. */
const BUILT_IN = [
  {
    id: 'sim-anthropic',
    label: 'Simulated Anthropic',
    dialect: 'anthropic-messages',
    wire: 'anthropic',
    sdk: 'anthropic',
    simulated: true,
    baseUrl: SIM_ANTHROPIC_URL,
    defaultModel: 'claude-sim-sonnet',
    fallbackModel: 'claude-sim-haiku',
  },
  {
    id: 'sim-openai',
    label: 'Simulated OpenAI',
    dialect: 'openai-chat',
    wire: 'openai',
    sdk: 'openai',
    simulated: true,
    baseUrl: 'http://sim.openai.local/v1',
    defaultModel: 'gpt-sim-4o',
    fallbackModel: 'gpt-sim-mini',
  },
  {
    id: 'sim-deepseek',
    label: 'Simulated DeepSeek-style (reasoning)',
    dialect: 'deepseek-reasoning',
    wire: 'openai',
    sdk: 'openai',
    simulated: true,
    baseUrl: 'http://sim.deepseek.local/v1',
    defaultModel: 'deepseek-sim-reasoner',
    fallbackModel: 'deepseek-sim-chat',
  },
  {
    id: 'sim-openai-responses',
    label: 'Simulated OpenAI Responses',
    dialect: 'openai-responses',
    wire: 'responses',
    sdk: 'openai',
    simulated: true,
    baseUrl: 'http://sim.openai-responses.local/v1',
    defaultModel: 'gpt-sim-5',
    fallbackModel: 'gpt-sim-5-mini',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    dialect: 'anthropic-messages',
    wire: 'anthropic',
    sdk: 'anthropic',
    simulated: false,
    keyVar: 'ANTHROPIC_API_KEY',
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    baseUrl: 'https://api.anthropic.com',
    defaultModel: 'claude-sonnet-4-6',
    fallbackModel: 'claude-haiku-4-5',
  },
  {
    id: 'openai',
    label: 'OpenAI',
    dialect: 'openai-chat',
    wire: 'openai',
    sdk: 'openai',
    simulated: false,
    ...OPENAI,
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4o',
    fallbackModel: 'gpt-4o-mini',
  },
  {
    id: 'openai-compatible',
    label: 'OpenAI-compatible',
    dialect: 'openai-compatible',
    modelDialects: [{ prefix: 'deepseek', dialect: 'deepseek-reasoning' }],
    wire: 'openai',
    sdk: 'openai',
    simulated: false,
    ...OPENAI,
    keyHint: 'any placeholder works for a local server that ignores keys',
    defaultModel: 'deepseek-chat',
    fallbackModel: 'deepseek-chat',
  },
  {
    id: 'openai-responses',
    label: 'OpenAI Responses',
    dialect: 'openai-responses',
    wire: 'responses',
    sdk: 'openai',
    simulated: false,
    ...OPENAI,
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-5',
    fallbackModel: 'gpt-5-mini',
  },
] as const satisfies readonly VendorRow[];

/** The id of a vendor Loop Lab ships (for code that names one, such as a lesson's config). */
export type BuiltInVendor = (typeof BUILT_IN)[number]['id'];

const rows = new Map<Vendor, VendorRow>();

/**
 * Adds a vendor to the table; returns what removes it again (for a test's fixture). Throws when
 * the id is taken or the row is inconsistent, saying what to fix.
 */
export function registerVendor(row: VendorRow): () => void {
  const problem = rowProblem(row);
  if (problem) throw new Error(`vendor row "${row.id}": ${problem}`);
  rows.set(row.id, row);
  return () => {
    if (rows.get(row.id) === row) rows.delete(row.id);
  };
}

function rowProblem(row: VendorRow): string | undefined {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(row.id)) return 'an id is lower-case letters, digits and dashes';
  if (rows.has(row.id)) return 'a vendor with this id is already registered';
  if (row.sdk === 'anthropic' && row.wire !== 'anthropic')
    return `the Anthropic SDK speaks only the anthropic wire format, not "${row.wire}"`;
  if (row.sdk === 'openai' && row.wire === 'anthropic')
    return 'the anthropic wire format needs sdk "anthropic"';
  if (!row.simulated && !(row.keyVar && row.baseUrlVar))
    return 'a real vendor names its key and base-URL environment variables (keyVar, baseUrlVar)';
  if (row.simulated && !row.baseUrl)
    return 'a simulated vendor names the host its simulator answers for (baseUrl)';
  return undefined;
}

for (const row of BUILT_IN) registerVendor(row);

/** Every row, in the order registered (the built-in ones first). */
export function vendorRows(): readonly VendorRow[] {
  return [...rows.values()];
}

/** Every vendor id, in the table's order. */
export function vendorIds(): readonly Vendor[] {
  return [...rows.keys()];
}

/** Whether the table has a row with this id. */
export function isVendor(value: string): boolean {
  return rows.has(value);
}

/** A string the page read from a select, as a vendor (undefined: it names none). */
export function asVendor(value: string): Vendor | undefined {
  return rows.has(value) ? value : undefined;
}

/** A vendor's row; throws for an id the table does not hold, listing the ones it does. */
export function vendorRow(vendor: Vendor): VendorRow {
  const row = rows.get(vendor);
  if (!row) throw new Error(`no vendor "${vendor}"; the vendors are ${vendorIds().join(', ')}`);
  return row;
}

/** Which wire format a vendor speaks. */
export function dialectOf(vendor: Vendor): Dialect {
  return vendorRow(vendor).wire;
}

/** Simulated vendors need no key and no network. A name the table does not hold is not simulated. */
export function isSimulated(vendor: Vendor): boolean {
  return rows.get(vendor)?.simulated === true;
}

/** The id of the dialect module a vendor and model speak (the row's model-prefix rules first). */
export function dialectIdOf(vendor: Vendor, model: string): DialectId {
  const row = vendorRow(vendor);
  return row.modelDialects?.find((rule) => model.startsWith(rule.prefix))?.dialect ?? row.dialect;
}

/**
 * Whether the vendor has no address of its own: the run or the environment gives a base URL, and
 * its models are whatever the server there serves (the pickers show a base-URL field and a free
 * model name; the same names at another address may be another server).
 */
export function needsBaseUrl(vendor: Vendor): boolean {
  return vendorRow(vendor).baseUrl === undefined;
}

/** A vendor's default model and the fallback-model mechanism's target. */
export function vendorDefaults(vendor: Vendor): { model: string; fallback: string } {
  const row = vendorRow(vendor);
  return { model: row.defaultModel, fallback: row.fallbackModel };
}

/** What the pickers call a vendor. */
export function vendorLabel(vendor: Vendor): string {
  return vendorRow(vendor).label;
}

/** The environment variables that hold vendor keys (redaction treats every one as a secret). */
export function envKeyVars(): readonly string[] {
  return [...new Set(vendorRows().flatMap((row) => (row.keyVar ? [row.keyVar] : [])))];
}
