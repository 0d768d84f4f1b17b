import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import type { ArgRepairRung, ToolCallPart } from '@/lib/protocol';
import { describeJsonDamage } from './json-damage';
import { parseCallArgs, type ParsedArgs } from './parse-args';

/** One rung that changed the arguments: what the arg_repair event says. */
export interface RepairStep {
  rung: ArgRepairRung;
  changes: string[];
  before: string;
  after: string;
  next: 'coerce' | 'run' | 'reask';
  why: string;
}

export interface LadderResult {
  /** The arguments after every rung that applied (or why they could not be read at all). */
  parsed: ParsedArgs;
  steps: RepairStep[];
}

export interface LadderRungs {
  repairJson: boolean;
  coerceArgs: boolean;
}

function asObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Rung 1: the text repaired by jsonrepair, when that yields a JSON object. */
function repairText(text: string): { args: Record<string, unknown>; repaired: string } | undefined {
  let repaired: string;
  try {
    repaired = jsonrepair(text);
  } catch {
    return undefined;
  }
  const args = asObject(repaired);
  return args ? { args, repaired: JSON.stringify(args) } : undefined;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Rung 2: values the schema says are numbers or booleans, sent as strings that can mean only that one value. */
function coerce(
  input: z.ZodType,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; changes: string[] } | undefined {
  const checked = input.safeParse(args);
  if (checked.success) return undefined;
  const out: Record<string, unknown> = structuredClone(args);
  const changes: string[] = [];
  for (const issue of checked.error.issues) {
    if (issue.code !== 'invalid_type' || issue.path.length === 0) continue;
    let holder: unknown = out;
    for (const key of issue.path.slice(0, -1))
      holder =
        holder !== null && typeof holder === 'object'
          ? (holder as Record<PropertyKey, unknown>)[key]
          : undefined;
    if (holder === null || typeof holder !== 'object') continue;
    const last = issue.path[issue.path.length - 1]!;
    const value = (holder as Record<PropertyKey, unknown>)[last];
    if (typeof value !== 'string') continue;
    let to: number | boolean | undefined;
    if (issue.expected === 'number' && NUMBER.test(value.trim())) to = Number(value.trim());
    else if (issue.expected === 'boolean' && (value === 'true' || value === 'false')) to = value === 'true';
    if (to === undefined) continue;
    (holder as Record<PropertyKey, unknown>)[last] = to;
    changes.push(`${issue.path.map(String).join('.')}: ${JSON.stringify(value)} → ${String(to)}`);
  }
  return changes.length > 0 ? { args: out, changes } : undefined;
}

const NEXT_WORDS: Record<RepairStep['next'], string> = {
  coerce: 'next, values are fitted to the schema',
  run: 'the call goes on with the repaired arguments',
  reask: 'they still do not fit the schema, so the model is asked again with the specific error',
};

/**
 * The repair ladder for one call's arguments: parse → repair the JSON text (jsonrepair) →
 * coerce values the schema takes unambiguously ("7" → 7) → (the caller) re-ask with the
 * specific error. Each rung runs only when switched on and the step before left the
 * arguments broken; each one that changed something is a step, saying what comes next.
 */
export function repairLadder(options: {
  call: ToolCallPart;
  input: z.ZodType;
  rungs: LadderRungs;
}): LadderResult {
  const { call, input, rungs } = options;
  const steps: RepairStep[] = [];
  let parsed = parseCallArgs(call);
  const fits = (args: Record<string, unknown>) => input.safeParse(args).success;
  const coerced = (args: Record<string, unknown>) => (rungs.coerceArgs ? coerce(input, args) : undefined);

  if (!parsed.ok && rungs.repairJson) {
    const fixed = repairText(call.argsText);
    if (fixed) {
      const next = fits(fixed.args) ? 'run' : coerced(fixed.args) ? 'coerce' : 'reask';
      const changes = describeJsonDamage(call.argsText);
      steps.push({
        rung: 'json',
        changes,
        before: call.argsText,
        after: fixed.repaired,
        next,
        why: `${call.name}'s arguments were not valid JSON (${changes.join(', ')}); repaired with jsonrepair: ${NEXT_WORDS[next]}.`,
      });
      parsed = { ok: true, args: fixed.args };
    }
  }
  if (parsed.ok) {
    const fitted = coerced(parsed.args);
    if (fitted) {
      const next = fits(fitted.args) ? 'run' : 'reask';
      steps.push({
        rung: 'coerce',
        changes: fitted.changes,
        before: JSON.stringify(parsed.args),
        after: JSON.stringify(fitted.args),
        next,
        why: `${call.name} got ${fitted.changes.length === 1 ? 'a value' : 'values'} its schema takes only one way (${fitted.changes.join(', ')}); converted: ${NEXT_WORDS[next]}.`,
      });
      parsed = { ok: true, args: fitted.args };
    }
  }
  return { parsed, steps };
}
