import { z } from 'zod';
import { MODULE_FAULT_PLAN } from '@/lib/mechanisms/modules/protocol';

/**
 * A fault plan: rules applied beneath the vendor SDK, at the fetch level, to simulated
 * and real vendors alike (lib/faults). Tool faults are applied by the tool executor.
 */

/** Which model requests a rule hits. Request numbers count every HTTP attempt from 1. */
export const FaultWhenSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('always') }),
  z.strictObject({
    kind: z.literal('requests'),
    numbers: z.array(z.number().int().min(1).max(1_000_000)).min(1).max(1000),
  }),
  z.strictObject({ kind: z.literal('probability'), p: z.number().min(0).max(1) }),
  /** The rule's next N hits: requests it is the first matching rule for, from when it is switched on. */
  z.strictObject({ kind: z.literal('next'), count: z.number().int().min(1).max(1000) }),
  /** Every request sent before run-clock `ms`: a limit that lasts, whatever the retries in between. */
  z.strictObject({ kind: z.literal('until'), ms: z.number().int().min(1).max(86_400_000) }),
]);
export type FaultWhen = z.infer<typeof FaultWhenSchema>;

export const HttpErrorStatusSchema = z.union([
  z.literal(400),
  z.literal(401),
  z.literal(403),
  z.literal(404),
  z.literal(408),
  z.literal(409),
  z.literal(413),
  z.literal(429),
  z.literal(500),
  z.literal(502),
  z.literal(503),
  z.literal(504),
  z.literal(529),
]);

/**
 * Where inside a stream a fault strikes: just after the first record of a text, tool
 * argument or thinking block has passed (so some of it arrived), or at the final delta —
 * the record carrying the stop reason — before it passes. A stream fault may instead (or as
 * well) name `afterEvents`: whichever point comes first. With neither, it strikes at once.
 */
export const StreamPointSchema = z.enum(['text', 'tool_args', 'thinking', 'final']);
export type StreamPoint = z.infer<typeof StreamPointSchema>;

export const FaultActionSchema = z.discriminatedUnion('type', [
  /** An HTTP error with the vendor's own body and headers. */
  z.strictObject({
    type: z.literal('http_error'),
    status: HttpErrorStatusSchema,
    retryAfterSec: z
      .number()
      .min(0)
      .max(86_400 * 7)
      .optional(),
    retryAfterMs: z
      .number()
      .int()
      .min(0)
      .max(86_400_000 * 7)
      .optional(),
    /**
     * The account's money is spent, not its rate: the vendor's exhausted-quota answer, which no
     * wait fixes (OpenAI dialect: a 429 `insufficient_quota`; Anthropic: its 400 "credit balance
     * is too low"). Only with status 429.
     */
    quota: z.boolean().optional(),
  }),
  /** A non-JSON body from a proxy in front of the vendor. */
  z.strictObject({
    type: z.literal('proxy_error'),
    status: z.number().int().min(400).max(599),
    body: z.enum(['html', 'text']),
  }),
  /** The connection fails before any response headers. */
  z.strictObject({ type: z.literal('connection'), mode: z.enum(['refused', 'reset']) }),
  /**
   * Silence until aborted, from the fault's point on (afterEvents records, or `during`);
   * with `beforeHeaders` the vendor never even answers.
   */
  z.strictObject({
    type: z.literal('stall'),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
    beforeHeaders: z.boolean().optional(),
  }),
  /** Every record from the fault's point on (the start, unless placed) is delayed by delayMs. */
  z.strictObject({
    type: z.literal('slow_drip'),
    delayMs: z.number().int().min(1).max(600_000),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
  }),
  /** The connection drops at the fault's point. */
  z.strictObject({
    type: z.literal('drop'),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
  }),
  /** The vendor's own in-stream error event at the fault's point. */
  z.strictObject({
    type: z.literal('sse_error'),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
    errorType: z.enum(['overloaded_error', 'api_error', 'rate_limit_error']),
    /**
     * The Responses API only: which event carries the failure — its `error` event (the default) or
     * `response.failed`, the response itself ending with status failed and its error's code
     * (server_error; rate_limit_exceeded for a rate limit). Other dialects have one error record.
     */
    responsesEvent: z.enum(['error', 'response.failed']).optional(),
  }),
  /** The next JSON record at the fault's point is cut short. */
  z.strictObject({
    type: z.literal('malformed'),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
  }),
  /**
   * Keepalives (pings or comment lines) every intervalMs and never any more content: from
   * the first byte, or from the fault's point on when one is given.
   */
  z.strictObject({
    type: z.literal('keepalive_only'),
    intervalMs: z.number().int().min(10).max(600_000),
    style: z.enum(['ping', 'comment']),
    afterEvents: z.number().int().min(0).max(1_000_000).optional(),
    during: StreamPointSchema.optional(),
  }),
]);
export type FaultAction = z.infer<typeof FaultActionSchema>;

export const FaultRuleSchema = z.strictObject({
  id: z.string().min(1).max(64),
  label: z.string().max(200).optional(),
  enabled: z.boolean().default(true),
  /** Which calls it hits: every request, or only foreground (the loop's turns) or background (titles, summaries). */
  target: z.enum(['any', 'foreground', 'background']).optional(),
  /** Only requests naming this model (a busy model, while its fallback is fine); absent: every model. */
  model: z.string().min(1).max(200).optional(),
  when: FaultWhenSchema,
  action: FaultActionSchema,
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;

export const ToolFaultSchema = z.strictObject({
  id: z.string().min(1).max(64),
  /** Tool name, or '*' for every tool. */
  tool: z.string().min(1).max(64),
  enabled: z.boolean().default(true),
  /**
   * interrupt: the turn is cut after the call — the tool's result never comes back (a crash or
   * an interrupt between the call and its result), and the loop goes on to its next request.
   */
  kind: z.enum(['throw', 'flaky', 'slow', 'huge', 'interrupt']),
  /** flaky: probability of failure per call under the run's seed. */
  p: z.number().min(0).max(1).optional(),
  /** slow: how long the tool takes. */
  delayMs: z.number().int().min(0).max(3_600_000).optional(),
  /** huge: size of the output in characters. */
  chars: z.number().int().min(1).max(2_000_000).optional(),
  /** At most this many calls are hit (the first ones of its tool); absent: every call. */
  times: z.number().int().min(1).max(1_000).optional(),
});
export type ToolFault = z.infer<typeof ToolFaultSchema>;

/** How a tool fault is named wherever a run's faults are listed: "tools throw (every tool)". */
export function toolFaultLabel(fault: Pick<ToolFault, 'kind' | 'tool'>): string {
  return `tools ${fault.kind} (${fault.tool === '*' ? 'every tool' : fault.tool})`;
}

/**
 * What the simulated model does to an answer that must match a JSON Schema (the run config's
 * `answer`; simulated vendors only): `invalid_json`, the JSON in a markdown fence with a
 * trailing comma; `breaks_schema`, valid JSON with a required property left out and a number
 * sent as a string; `truncated`, an answer longer than the output cap, which the vendor cuts;
 * `refusal`, the model declines (each vendor's own refusal). The vendor's guarantees hold as
 * they do for real: a forced Anthropic tool's input and an OpenAI strict-mode answer are always
 * valid JSON, and strict mode's always matches the schema, so `invalid_json` (and under strict
 * mode `breaks_schema`) cannot happen there.
 */
export const AnswerFaultKindSchema = z.enum(['invalid_json', 'breaks_schema', 'truncated', 'refusal']);
export type AnswerFaultKind = z.infer<typeof AnswerFaultKindSchema>;

export const AnswerFaultSchema = z.strictObject({
  id: z.string().min(1).max(64),
  enabled: z.boolean().default(true),
  kind: AnswerFaultKindSchema,
  /** At most this many answers are hit (the first ones); absent: every answer. */
  times: z.number().int().min(1).max(1_000).optional(),
});
export type AnswerFault = z.infer<typeof AnswerFaultSchema>;

export const FaultPlanSchema = z.strictObject({
  rules: z.array(FaultRuleSchema).max(100).default([]),
  tools: z.array(ToolFaultSchema).max(100).default([]),
  /** What the simulated model does to a structured answer (absent: nothing). */
  answers: z.array(AnswerFaultSchema).max(20).optional(),
  /** The faults mechanism modules bring, each under its own field (lib/mechanisms/modules/protocol.ts). */
  ...MODULE_FAULT_PLAN,
});
export type FaultPlan = z.infer<typeof FaultPlanSchema>;
/** What a simulated sub-agent does wrong (`faults.subagents`, a module's field of the plan). */
export type SubagentFault = NonNullable<FaultPlan['subagents']>[number];
export const EMPTY_FAULT_PLAN: FaultPlan = { rules: [], tools: [] };
