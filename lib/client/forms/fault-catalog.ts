import type { FaultPlan, FaultRule, ToolFault } from '@/lib/protocol';

/**
 * The fault toggles the control panel offers, each one a rule of the fault plan. Toggling
 * one during a run sends the whole plan with set_faults.
 */

export type FaultGroup = 'HTTP errors' | 'Stream faults' | 'Connection' | 'Context' | 'Tool faults';

export interface FaultToggle {
  id: string;
  group: FaultGroup;
  label: string;
  /** One line: what the loop will see. */
  meaning: string;
  rule?: FaultRule;
  tool?: ToolFault;
}

const next1 = { kind: 'next', count: 1 } as const;

function model(
  id: string,
  group: FaultGroup,
  label: string,
  meaning: string,
  rule: Omit<FaultRule, 'id' | 'label' | 'enabled'>,
): FaultToggle {
  return { id, group, label, meaning, rule: { id, label, enabled: true, ...rule } };
}

function tool(
  id: string,
  label: string,
  meaning: string,
  fault: Omit<ToolFault, 'id' | 'enabled' | 'tool'>,
): FaultToggle {
  return { id, group: 'Tool faults', label, meaning, tool: { id, tool: '*', enabled: true, ...fault } };
}

export const FAULT_TOGGLES: readonly FaultToggle[] = [
  model(
    'summarizer-broken',
    'Context',
    'summarizer broken (background only)',
    "every background call (summary, title) answers 500; the loop's own turns pass — watch the breaker",
    {
      target: 'background',
      when: { kind: 'always' },
      action: { type: 'http_error', status: 500 },
    },
  ),
  model('overloaded-x3', 'HTTP errors', 'overloaded ×3', 'the next 3 requests answer 529 overloaded', {
    when: { kind: 'next', count: 3 },
    action: { type: 'http_error', status: 529 },
  }),
  model(
    'rate-limit-7s',
    'HTTP errors',
    '429 with Retry-After 7 s',
    'rate limited once; the server asks for a 7 s wait',
    {
      when: next1,
      action: { type: 'http_error', status: 429, retryAfterSec: 7 },
    },
  ),
  model(
    'proxy-502-html',
    'HTTP errors',
    '502 from proxy (HTML)',
    'a proxy answers with an HTML error page, not JSON',
    {
      when: next1,
      action: { type: 'proxy_error', status: 502, body: 'html' },
    },
  ),
  model('server-500', 'HTTP errors', '500 server error ×2', 'the next 2 requests answer 500 internal error', {
    when: { kind: 'next', count: 2 },
    action: { type: 'http_error', status: 500 },
  }),
  model('bad-key', 'HTTP errors', 'bad key (401)', 'every request is rejected as unauthenticated', {
    when: { kind: 'always' },
    action: { type: 'http_error', status: 401 },
  }),
  model(
    'stall-after-first',
    'Stream faults',
    'stall after first event',
    'headers and one event arrive, then silence',
    {
      when: next1,
      action: { type: 'stall', afterEvents: 1 },
    },
  ),
  model('keepalive-only', 'Stream faults', 'keepalive pings only', 'pings every 5 s, never any content', {
    when: next1,
    action: { type: 'keepalive_only', intervalMs: 5_000, style: 'ping' },
  }),
  model(
    'slow-drip',
    'Stream faults',
    'slow drip (1.5 s a record)',
    'every stream record of the next response waits 1.5 s',
    {
      when: next1,
      action: { type: 'slow_drip', delayMs: 1_500 },
    },
  ),
  model('drop-mid-text', 'Stream faults', 'drop mid-text', 'the connection drops while text is streaming', {
    when: next1,
    action: { type: 'drop', during: 'text' },
  }),
  model(
    'drop-mid-tool-call',
    'Stream faults',
    'drop mid-tool-call',
    'the connection drops inside tool-call arguments',
    {
      when: next1,
      action: { type: 'drop', during: 'tool_args' },
    },
  ),
  model(
    'drop-at-final',
    'Stream faults',
    'drop at the final delta',
    'all content arrives, then the connection drops before the stop reason',
    {
      when: next1,
      action: { type: 'drop', during: 'final' },
    },
  ),
  model(
    'mid-stream-overloaded',
    'Stream faults',
    'mid-stream overloaded',
    'an overloaded_error event after 3 records',
    {
      when: next1,
      action: { type: 'sse_error', afterEvents: 3, errorType: 'overloaded_error' },
    },
  ),
  model('malformed-json', 'Stream faults', 'malformed record', 'a stream record whose JSON is cut short', {
    when: next1,
    action: { type: 'malformed', afterEvents: 2 },
  }),
  model('connection-reset', 'Connection', 'connection reset', 'the connection resets before any headers', {
    when: next1,
    action: { type: 'connection', mode: 'reset' },
  }),
  model(
    'connection-refused',
    'Connection',
    'connection refused',
    'nothing listens: the connection is refused',
    {
      when: next1,
      action: { type: 'connection', mode: 'refused' },
    },
  ),
  model(
    'no-answer',
    'Connection',
    'no answer (stall before headers)',
    'the vendor accepts the connection and never answers',
    {
      when: next1,
      action: { type: 'stall', beforeHeaders: true },
    },
  ),
  tool('tool-throw', 'tools throw', 'every tool call fails', { kind: 'throw' }),
  tool('tool-flaky', 'tools flaky (30 %)', 'each tool call fails with p = 0.3', { kind: 'flaky', p: 0.3 }),
  tool('tool-slow', 'tools slow (5 s)', 'every tool call takes 5 s', { kind: 'slow', delayMs: 5_000 }),
  tool('tool-huge', 'tools huge output', 'every tool returns 50,000 characters', {
    kind: 'huge',
    chars: 50_000,
  }),
  tool(
    'tool-interrupt',
    'turn cut after a call',
    'the first tool call runs but its result never comes back; the loop goes on',
    {
      kind: 'interrupt',
      times: 1,
    },
  ),
];

export const FAULT_GROUPS: readonly FaultGroup[] = [
  'HTTP errors',
  'Stream faults',
  'Connection',
  'Context',
  'Tool faults',
];

/** The tools of the built-in toolbox a tool fault can aim at ('*' = every tool). */
export const TOOL_FAULT_TARGETS = [
  '*',
  'list_files',
  'read_file',
  'search',
  'edit_file',
  'write_file',
  'run_check',
] as const;

/** The plan for a set of enabled toggles; tool faults hit `toolTarget` ('*' = every tool). */
export function faultPlanFor(enabled: readonly string[], toolTarget = '*'): FaultPlan {
  const on = FAULT_TOGGLES.filter((t) => enabled.includes(t.id));
  return {
    rules: on.flatMap((t) => (t.rule ? [t.rule] : [])),
    tools: on.flatMap((t) => (t.tool ? [{ ...t.tool, tool: toolTarget }] : [])),
  };
}

/** Which toggles a plan (e.g. from a run's config) has on. */
export function togglesInPlan(plan: FaultPlan | undefined): string[] {
  if (!plan) return [];
  const ids = new Set([
    ...plan.rules.filter((r) => r.enabled).map((r) => r.id),
    ...plan.tools.filter((t) => t.enabled).map((t) => t.id),
  ]);
  return FAULT_TOGGLES.filter((t) => ids.has(t.id)).map((t) => t.id);
}
