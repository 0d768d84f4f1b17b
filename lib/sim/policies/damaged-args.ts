import type { Message, Part } from '@/lib/protocol';
import type { Scenario } from '@/lib/tools/scenario';
import type { Policy, PolicyRequest } from '../types';
import { callHistory, callTurn, isSameCall } from './history';
import { workerPlan, type PlanStep } from './worker-plan';
import { decideWorkerStep, decisionTurn } from './worker';

/**
 * The kinds of damage real models put in tool arguments, in the order this model tries them:
 * each one the repair ladder can mend (the first four the JSON text, the last a value the
 * schema takes only one way).
 */
export const DAMAGE_KINDS = [
  'trailing-comma',
  'single-quotes',
  'unquoted-keys',
  'string-number',
  'cut-off',
] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

/** A numeric field each tool has, and the value that asks for its default (so the call reads what the plain one would). */
const NUMERIC_DEFAULTS: Record<string, [field: string, value: number]> = {
  read_file: ['limit', 2000],
  search: ['max_results', 50],
};

const PLAIN = /^[^'"\\\n\r]*$/;

/** The call's arguments with one kind of damage, or undefined when that kind does not fit them. */
export function damageArgs(
  name: string,
  args: Record<string, unknown>,
  kind: DamageKind,
): string | undefined {
  const entries = Object.entries(args);
  if (entries.length === 0) return undefined;
  const json = JSON.stringify(args);
  switch (kind) {
    case 'trailing-comma':
      return `${json.slice(0, -1)},}`;
    case 'single-quotes':
      if (!entries.every(([k, v]) => PLAIN.test(k) && (typeof v !== 'string' || PLAIN.test(v))))
        return undefined;
      return `{${entries.map(([k, v]) => `'${k}': ${typeof v === 'string' ? `'${v}'` : JSON.stringify(v)}`).join(', ')}}`;
    case 'unquoted-keys':
      if (!entries.every(([k]) => /^[A-Za-z_$][\w$]*$/.test(k))) return undefined;
      return `{${entries.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}}`;
    case 'string-number': {
      const numeric = NUMERIC_DEFAULTS[name];
      if (!numeric) return undefined;
      return JSON.stringify({ ...args, [numeric[0]]: String(numeric[1]) });
    }
    case 'cut-off':
      return json.slice(0, -1);
  }
}

/**
 * The conversation as this model remembers it: a call of its own that worked, whatever the
 * wire carried back of its damaged text (the raw text on OpenAI, `{}` on Anthropic, whose
 * tool_use input must be an object), is the plan step it meant — the next one of that tool
 * not yet done.
 */
function remembered(request: PolicyRequest, plan: PlanStep[]): PolicyRequest {
  const done = new Set<PlanStep>();
  const okIds = new Set(
    callHistory(request.messages).flatMap((r) => (r.result && !r.result.isError ? [r.id] : [])),
  );
  const messages: Message[] = request.messages.map((message) => ({
    ...message,
    parts: message.parts.map((part): Part => {
      if (part.type !== 'tool_call') return part;
      const record = {
        id: part.id,
        name: part.name,
        argsText: part.argsText,
        args: part.args,
        result: undefined,
      };
      const exact = plan.find(
        (s) =>
          !done.has(s) &&
          s.name === part.name &&
          part.args !== undefined &&
          isSameCall(record, s.name, s.args),
      );
      if (exact) {
        if (okIds.has(part.id)) done.add(exact);
        return part;
      }
      if (!okIds.has(part.id)) return part;
      const meant = plan.find((s) => !done.has(s) && s.name === part.name);
      if (!meant) return part;
      done.add(meant);
      return { ...part, argsText: JSON.stringify(meant.args), args: meant.args };
    }),
  }));
  return { ...request, messages };
}

/**
 * Does the task, but sends each of its first calls with arguments damaged one way or another
 * (a trailing comma, single quotes, unquoted keys, a number as a string, a cut-off closing
 * brace: one of each, in that order, where the call has arguments that kind fits). A call that
 * failed is sent again valid; one the loop repaired counts as done.
 */
export function createDamagedArgsPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const plan = workerPlan({ hints: scenario.hints, request });
    const isPlanCall = (r: {
      name: string;
      argsText: string;
      args: Record<string, unknown> | undefined;
      id: string;
    }) => plan.some((s) => isSameCall({ ...r, result: undefined }, s.name, s.args));
    const sent = callHistory(request.messages).filter((r) => !r.id.startsWith('summary-'));
    const damaged = sent.filter((r) => !isPlanCall(r));
    const last = sent[sent.length - 1];
    const lastFailedDamaged = last !== undefined && !isPlanCall(last) && last.result?.isError === true;
    const view = remembered(request, plan);
    const decision = decideWorkerStep({ scenario, request: view });
    if (decision.kind === 'call' && damaged.length < DAMAGE_KINDS.length && !lastFailedDamaged) {
      for (let k = damaged.length; k < DAMAGE_KINDS.length; k++) {
        const text = damageArgs(decision.name, decision.args, DAMAGE_KINDS[k]!);
        if (text === undefined) continue;
        const thinking = request.thinking ? `Call ${decision.name} for the next step.` : undefined;
        return callTurn({ name: decision.name, args: text, thinking });
      }
    }
    return decisionTurn({ decision, request: view, random });
  };
}
