import { z } from 'zod';
import { McpConfigSchema } from './mcp';
import { PauseConfigSchema } from './pause';
import { FaultPlanSchema } from './faults';
import { OUTPUT_CAP_MAX, PresetIdSchema, RecoveryOverridesSchema } from './recovery';
import { DEFAULT_PRESET } from './preset-ids';
import { ReplayConfigSchema } from './replay';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_COST_USD,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_RUN_MS,
  MAX_SCHEDULED_SWAPS,
} from './config-defaults';
import { isVendor, vendorIds } from './vendors';

export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_COST_USD,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_RUN_MS,
  DEFAULT_SYSTEM_PROMPT,
  MAX_SCHEDULED_SWAPS,
} from './config-defaults';
export {
  asVendor,
  dialectIdOf,
  dialectOf,
  envKeyVars,
  isSimulated,
  isVendor,
  needsBaseUrl,
  registerVendor,
  vendorDefaults,
  vendorIds,
  vendorLabel,
  vendorRow,
  vendorRows,
  type BuiltInVendor,
  type Dialect,
  type DialectId,
  type Vendor,
  type VendorRow,
} from './vendors';

/**
 * Where a run's model traffic goes: a row of the vendor table (vendors.ts, free of zod for the
 * browser's first load), read when a value is parsed, so a registered vendor is accepted.
 */
export const VendorSchema = z.string().refine(isVendor, {
  error: (issue) => `no vendor "${String(issue.input)}"; the vendors are ${vendorIds().join(', ')}`,
});

export const ProviderConfigSchema = z
  .object({
    vendor: VendorSchema,
    /** Empty: the vendor's default model. */
    model: z.string().max(200).default(''),
    /**
     * Overrides the SDK's base URL (and ANTHROPIC_BASE_URL / OPENAI_BASE_URL); http(s) only.
     * A URL the server's environment does not name needs a key sent with the same request.
     */
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2000)
      .optional(),
    /**
     * Where the key comes from. The key itself is never part of a config: a key sent with
     * a run request is held in memory for that run only.
     */
    keySource: z.enum(['env', 'request']).default('env'),
    /** Ask for extended thinking where the vendor supports it. */
    thinking: z.boolean().default(true),
  })
  .strict();
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

export const SimPolicyIdSchema = z.enum([
  'worker',
  'repeat-on-failure',
  'hallucinate-tool',
  'bad-args',
  'damaged-args',
  'ignore-truncation',
  'long-output',
  'rewrite-test',
  'parallel-reads',
  'guess-paths',
  'write-whole-file',
]);
export type SimPolicyId = z.infer<typeof SimPolicyIdSchema>;

/**
 * How a trajectory is handed to another vendor or model. Credentials never
 * travel on a switch; foreign thinking text is dropped or kept as a marked note. `naive`
 * sends the history as it was, credentials included, so the strict vendor's real rejection
 * can be seen.
 */
/**
 * The takeover safeguards that can be switched off one at a time (naive: all at once):
 * `credentials` — thinking signed by another model (its signature, a redacted block) is never
 * sent to a model that did not mint it; `latest_turn` — Anthropic's rule that a tool round in
 * progress must start with thinking this model signed, met by asking for no thinking on that
 * request; `reasoning_placeholder` — a DeepSeek-style vendor's tool-call turn without reasoning
 * of its own is given the placeholder reasoning_content it requires; `handles` — a history a
 * vendor held by reference (a Responses API `previous_response_id`) is re-sent by value to any other
 * model or vendor. `naive` switches off the first three: a naive takeover sends the history by
 * value, as it was; `handles` is off only when named, and then the old reference goes out instead.
 */
export const TakeoverRuleSchema = z.enum(['credentials', 'latest_turn', 'reasoning_placeholder', 'handles']);
export type TakeoverRule = z.infer<typeof TakeoverRuleSchema>;

export const TakeoverSchema = z
  .object({
    foreignThinking: z.enum(['drop', 'note']).default('drop'),
    naive: z.boolean().default(false),
    /** Safeguards switched off alone (absent: none); `naive` switches every one off. */
    rulesOff: z.array(TakeoverRuleSchema).max(4).optional(),
  })
  .strict();
export type TakeoverHandling = z.infer<typeof TakeoverSchema>;
export const DEFAULT_TAKEOVER: TakeoverHandling = { foreignThinking: 'drop', naive: false };

/**
 * Whether a takeover safeguard is in force: not switched off alone, and (but for `handles`,
 * which only naming switches off) no naive takeover.
 */
export function takeoverRuleOn(handling: TakeoverHandling, rule: TakeoverRule): boolean {
  if ((handling.rulesOff ?? []).includes(rule)) return false;
  return rule === 'handles' || !handling.naive;
}

/** What part of a render cache key the handling is: everything rendering depends on in it. */
export function takeoverKey(handling: TakeoverHandling): string {
  return `${handling.foreignThinking}\u0000${handling.naive}\u0000${[...(handling.rulesOff ?? [])].sort().join(',')}`;
}

/**
 * Which copies of the scenario's test files the task verdict runs against the final workspace:
 * `shipped`, as the scenario shipped them (a model that rewrites a test cannot make its task
 * done), or `workspace`, the workspace's own, as run_check runs them. Absent: shipped.
 */
export const VerdictTestsSchema = z.enum(['shipped', 'workspace']);
export type VerdictTests = z.infer<typeof VerdictTestsSchema>;
export const VerdictConfigSchema = z
  .object({
    tests: VerdictTestsSchema.default('shipped'),
  })
  .strict();
export type VerdictConfig = z.infer<typeof VerdictConfigSchema>;

/** A vendor (and model) to continue on; empty model: the vendor's default. */
export const SwapTargetSchema = z
  .object({
    vendor: VendorSchema,
    model: z.string().max(200).default(''),
  })
  .strict();
export type SwapTarget = z.infer<typeof SwapTargetSchema>;

/**
 * A swap planned in the config: from turn `atTurn` on, the run continues on `vendor`, its history
 * handed over as `takeover` says (absent: the run's own `takeover`). A swap made by hand during a
 * run is recorded into its stored config as one of these (`recorded_as` on its swap event), so a
 * re-run, a fork or a sweep of that config makes it again at the same turn.
 */
export const ScheduledSwapSchema = SwapTargetSchema.extend({
  atTurn: z.number().int().min(1).max(500),
  takeover: TakeoverSchema.optional(),
}).strict();
export type ScheduledSwap = z.infer<typeof ScheduledSwapSchema>;

/**
 * The final answer must match a JSON Schema: the request carries it the way each dialect
 * supports (Anthropic a forced tool, OpenAI Chat `response_format`, Responses `text.format`;
 * lib/dialects renders it) and the structured-answer mechanism checks the answer against it.
 * Every vendor takes an object as the answer, so the root is `{"type": "object", ...}`.
 */
export const AnswerFormatSchema = z
  .object({
    /** The format's name (OpenAI's `json_schema.name`, Anthropic's answer tool). */
    name: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a name of 1 to 64 letters, digits, _ or -')
      .default('answer'),
    schema: z.record(z.string(), z.unknown()).refine((s) => s.type === 'object', {
      error:
        'the root of the schema must be {"type": "object", ...}: every vendor takes an object as the answer',
    }),
    /**
     * OpenAI's strict mode: the vendor guarantees the schema (which must then close every object
     * with `additionalProperties: false` and require every property). Anthropic has no such mode.
     */
    strict: z.boolean().default(false),
  })
  .strict();
export type AnswerFormat = z.infer<typeof AnswerFormatSchema>;

/** Every budget is finite: a run always ends, whatever the model, the faults and the recovery do. */
export const BudgetsSchema = z
  .object({
    maxIterations: z.number().int().min(1).max(500).default(DEFAULT_MAX_ITERATIONS),
    maxCostUsd: z.number().min(0).max(1000).default(DEFAULT_MAX_COST_USD),
    /** Run-clock milliseconds before the run is stopped (1 s to 24 h). */
    maxRunMs: z.number().int().min(1_000).max(86_400_000).default(DEFAULT_MAX_RUN_MS),
    /** Model request attempts before the run is stopped, foreground and background alike. */
    maxAttempts: z.number().int().min(1).max(10_000).default(DEFAULT_MAX_ATTEMPTS),
  })
  .strict();

/** A tool's name as the model sees it (lib/tools): the key of a description override. */
export const ToolNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a tool name: lowercase letters, digits and _');

/** Which named, versioned prompt set a run's prompts came from (the texts themselves are in the config). */
export const PromptSetRefSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    version: z.number().int().min(1),
  })
  .strict();
export type PromptSetRef = z.infer<typeof PromptSetRefSchema>;

/**
 * The run's clock. real: wall time at the time scale. virtual: discrete-event time that jumps
 * straight to the next deadline (simulated vendors and replays only). paced: the virtual clock
 * with each jump held back until wall time has caught up at the time scale — the virtual run,
 * event for event, watched at a readable pace.
 */
export const ClockKindSchema = z.enum(['real', 'virtual', 'paced']);
export type ClockKind = z.infer<typeof ClockKindSchema>;

/**
 * A strategy of one's own: a TypeScript file implementing the mechanism port, loaded by the CLI
 * or a sweep (never by the web API, which refuses a config that names one), pinned by the
 * sha256 of its bytes so a run stays reproducible and its log says which strategy ran.
 */
export const StrategyRefSchema = z
  .object({
    /** The file, as given (relative to the directory the CLI ran in). */
    file: z.string().min(1).max(500),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the sha256 of the file: 64 lower-case hex digits'),
  })
  .strict();
export type StrategyRef = z.infer<typeof StrategyRefSchema>;

/** What the web API answers a config that names a strategy. */
export const STRATEGY_NOT_FROM_WEB =
  'a strategy is code: it runs only from the CLI (npm run loop -- --strategy <file>) or a sweep file (npm run sweep), never through the web API; remove "strategy"';

/**
 * A task folder a CLI run or a sweep names: its path as given and the sha256 over its files
 * (each path and its bytes, in path order), so a run stays reproducible from its config and a
 * folder changed since is refused. The web API refuses a config that names one.
 */
export const TaskDirRefSchema = z
  .object({
    dir: z.string().min(1).max(500),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the sha256 of the folder: 64 lower-case hex digits'),
  })
  .strict();
export type TaskDirRef = z.infer<typeof TaskDirRefSchema>;

/** What the web API answers a config that names a task folder. */
export const TASK_DIR_NOT_FROM_WEB =
  'a task folder is read from disk: it runs only from the CLI (npm run loop -- --task-dir <dir>) or a sweep file (npm run sweep), never through the web API; remove "taskDir"';

/**
 * A task folder uploaded to the playground (POST /api/tasks, docs/tasks.md): the upload's id and
 * the sha256 of its files, as for a folder on disk. The server keeps the files under that hash,
 * never edited, so a run that names one stays reproducible from its config; in room mode only its
 * uploader may run it.
 */
export const TaskUploadRefSchema = z
  .object({
    id: z.string().regex(/^task-[0-9a-z]{1,40}$/, "an uploaded task's id, as GET /api/tasks lists it"),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "the sha256 of the task's files: 64 lower-case hex digits"),
  })
  .strict();
export type TaskUploadRef = z.infer<typeof TaskUploadRefSchema>;

export const RunConfigSchema = z
  .object({
    provider: ProviderConfigSchema,
    /** A scenario id from lib/tools/scenarios. */
    scenario: z.string().min(1).max(100).default('fix-failing-test'),
    /** Replaces the scenario's task text. */
    task: z.string().min(1).max(20_000).optional(),
    /** Replaces the scenario's simulated model policy (simulated vendors only). */
    policy: SimPolicyIdSchema.optional(),
    /** Replaces the built-in system prompt (DEFAULT_SYSTEM_PROMPT). */
    system: z.string().max(20_000).optional(),
    /** Replaces tool descriptions, by tool name; tools not named keep their own. */
    toolDescriptions: z
      .record(
        ToolNameSchema,
        z.string().trim().min(1, 'an empty description: leave the tool out to keep its own').max(4_000),
      )
      .optional(),
    /** The prompt set the system prompt, task and tool descriptions were loaded from, unchanged. */
    promptSet: PromptSetRefSchema.optional(),
    preset: PresetIdSchema.default(DEFAULT_PRESET),
    recovery: RecoveryOverridesSchema.default({}),
    faults: FaultPlanSchema.default({ rules: [], tools: [] }),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    /** Real and paced clocks: wall time per unit of run time (0.05 shows a 120 s wait in 6 s). */
    timeScale: z.number().min(0.001).max(10).default(1),
    clock: ClockKindSchema.default('real'),
    /** Output cap per model call; empty: the preset's (`recovery.output.maxTokens`: s11 8,000, others 8,192). */
    maxOutputTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX).optional(),
    budgets: BudgetsSchema.default({
      maxIterations: DEFAULT_MAX_ITERATIONS,
      maxCostUsd: DEFAULT_MAX_COST_USD,
      maxRunMs: DEFAULT_MAX_RUN_MS,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
    }),
    /** How history is rendered when the vendor or model changes mid-run. */
    takeover: TakeoverSchema.default(DEFAULT_TAKEOVER),
    /** Planned swaps, applied at the request boundary of their turn. */
    swaps: z.array(ScheduledSwapSchema).max(MAX_SCHEDULED_SWAPS).default([]),
    /** How the task verdict judges the final workspace; absent: the scenario's shipped tests. */
    verdict: VerdictConfigSchema.optional(),
    /** Serve the model traffic from a cassette (lib/cassettes) instead of the vendor: the vendor and model are the recording's. */
    replay: ReplayConfigSchema.optional(),
    /** The final answer must match this JSON Schema (absent: a free-text answer). */
    answer: AnswerFormatSchema.optional(),
    /** A strategy of one's own on the mechanism port (CLI and sweeps only). */
    strategy: StrategyRefSchema.optional(),
    /** A task folder of one's own instead of a built-in scenario (CLI and sweeps only; lib/tools/tasks). */
    taskDir: TaskDirRefSchema.optional(),
    /** A task folder uploaded to the playground instead of a built-in scenario (lib/tools/tasks). */
    taskUpload: TaskUploadRefSchema.optional(),
    /** Breakpoints and tool approval: the run pauses there for a person (lib/protocol/pause.ts). */
    pause: PauseConfigSchema.optional(),
    /** MCP tool servers the run takes tools from, their transport faults and recovery (lib/protocol/mcp.ts). */
    mcp: McpConfigSchema.optional(),
  })
  .strict();
export type RunConfig = z.infer<typeof RunConfigSchema>;
/** What a caller may send: defaults filled in by parsing. */
export type RunConfigInput = z.input<typeof RunConfigSchema>;

export { describeIssues } from './describe-issues';
