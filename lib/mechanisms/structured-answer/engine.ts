import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';
import type { AnswerFormat, EventOf, Message } from '@/lib/protocol';
import { defineMechanism, type HookContext } from '@/lib/engine/mechanism-port';
import { DEFAULTS, ID } from './defaults';

type Rung = EventOf<'structured_answer'>['ladder'][number];

/** Its slice of the config: the run's answer format (absent: nothing to check) and its recovery. */
export interface StructuredAnswerConfig {
  format: AnswerFormat | undefined;
  repair: boolean;
  maxReasks: number;
}

/** The most errors an event and a re-ask name. */
const MAX_ERRORS = 20;

/** The answer's text: the text parts of a turn that made no tool call. */
function answerText(message: Message): string | undefined {
  if (message.parts.some((p) => p.type === 'tool_call')) return undefined;
  return message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function issues(error: z.ZodError): string[] {
  return error.issues
    .slice(0, MAX_ERRORS)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
}

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Coercion: each value turned into the type its schema names where that loses nothing ("3" →
 * 3, "true" → true, 3 → "3"), and properties a closed object does not allow dropped. `changes`
 * receives each change in words.
 */
export function coerce(value: unknown, schema: Schema, changes: string[], path = ''): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const at = path || '(root)';
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n) && (type === 'number' || Number.isInteger(n))) {
      changes.push(`${at}: "${value}" → ${n}`);
      return n;
    }
  }
  if (type === 'boolean' && (value === 'true' || value === 'false')) {
    changes.push(`${at}: "${value}" → ${value}`);
    return value === 'true';
  }
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    changes.push(`${at}: ${String(value)} → "${String(value)}"`);
    return String(value);
  }
  if (type === 'array' && Array.isArray(value) && isObject(schema.items)) {
    const items = schema.items;
    return value.map((v, i) => coerce(v, items, changes, `${path}${path ? '.' : ''}${i}`));
  }
  if (isObject(value) && (type === 'object' || isObject(schema.properties))) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const sub = properties[key];
      const where = `${path}${path ? '.' : ''}${key}`;
      if (sub === undefined && schema.additionalProperties === false) {
        changes.push(`${where}: not in the schema, dropped`);
        continue;
      }
      out[key] = isObject(sub) ? coerce(v, sub, changes, where) : v;
    }
    return out;
  }
  return value;
}

/** The ladder's verdict on one answer. */
interface Checked {
  ladder: Rung[];
  errors: string[];
  value?: unknown;
  repaired: boolean;
}

/**
 * The repair ladder: parse; if that fails (and repair is on), jsonrepair; the schema; if that
 * fails (and repair is on), coercion and the schema again. A cut answer (the output cap stopped
 * it) is never repaired: closing its JSON would keep a value the model never finished.
 */
export function checkAnswer(options: {
  text: string;
  validator: z.ZodType;
  schema: Schema;
  repair: boolean;
  cut: boolean;
}): Checked {
  const { text, validator, schema, cut } = options;
  const repair = options.repair && !cut;
  const ladder: Rung[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
    ladder.push({ rung: 'parse', ok: true, detail: 'valid JSON' });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    ladder.push({ rung: 'parse', ok: false, detail: `not valid JSON (${why})` });
    if (!repair) return { ladder, errors: [`(root): not valid JSON (${why})`], repaired: false };
    try {
      value = JSON.parse(jsonrepair(text));
      ladder.push({ rung: 'jsonrepair', ok: true, detail: 'jsonrepair made it valid JSON' });
    } catch (failed) {
      const detail = failed instanceof Error ? failed.message : String(failed);
      ladder.push({ rung: 'jsonrepair', ok: false, detail: `jsonrepair could not repair it (${detail})` });
      return { ladder, errors: [`(root): not valid JSON (${why})`], repaired: false };
    }
  }
  const first = validator.safeParse(value);
  if (first.success) {
    ladder.push({ rung: 'schema', ok: true, detail: 'matches the schema' });
    return { ladder, errors: [], value, repaired: ladder.length > 2 };
  }
  const errors = issues(first.error);
  ladder.push({
    rung: 'schema',
    ok: false,
    detail: `${errors.length} error${errors.length === 1 ? '' : 's'}`,
  });
  if (!repair) return { ladder, errors, repaired: false };
  const changes: string[] = [];
  const coerced = coerce(value, schema, changes);
  const second = changes.length > 0 ? validator.safeParse(coerced) : first;
  ladder.push({
    rung: 'coerce',
    ok: second.success,
    detail: changes.length > 0 ? changes.join('; ') : 'nothing to coerce',
  });
  if (second.success) return { ladder, errors: [], value: coerced, repaired: true };
  return { ladder, errors: issues(second.error), repaired: false };
}

/** What a re-ask tells the model. */
export function reaskPrompt(errors: readonly string[]): string {
  return `Your answer does not match the required JSON Schema:\n${errors.map((e) => `- ${e}`).join('\n')}\nAnswer again with only the JSON object, matching the schema.`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Structured answers on the mechanism port (after the response): when the run config requires
 * the answer to match a JSON Schema, each answer (a turn with no tool call) is checked on the
 * repair ladder (jsonrepair, coercion; `tools.answerRepair`) and, when it still does not match,
 * the model is asked again naming the errors, at most `tools.answerReasks` times; then the run
 * ends with the answer as it is, and says so. A refusal is not repaired: the run ends refused.
 * Every answer is a structured_answer event.
 */
export const ENGINE = defineMechanism<StructuredAnswerConfig>({
  id: ID,
  configOf: (recovery, run) => ({
    format: run?.answer,
    repair: recovery.tools.answerRepair ?? DEFAULTS.answerRepair,
    maxReasks: recovery.tools.answerReasks ?? DEFAULTS.answerReasks,
  }),
  create: () => {
    let reasks = 0;
    let validator: z.ZodType | undefined;
    const write = (
      ctx: HookContext<StructuredAnswerConfig>,
      fields: Omit<
        EventOf<'structured_answer'>,
        'seq' | 'ts' | 'run_id' | 'event' | 'iteration' | 'reasks' | 'max_reasks'
      >,
    ) =>
      ctx.emit({
        event: 'structured_answer',
        iteration: ctx.iteration,
        reasks,
        max_reasks: ctx.config.maxReasks,
        ...fields,
      });
    return {
      afterResponse(ctx, info) {
        const { format, repair, maxReasks } = ctx.config;
        if (!format) return undefined;
        const text = answerText(info.message);
        if (text === undefined) return undefined;
        if (info.stopReason === 'refusal') {
          write(ctx, {
            outcome: 'refused',
            ladder: [],
            errors: [],
            next: 'run_ends',
            why: 'the model refused instead of answering: a refusal is not an answer to repair or ask again for, so the run ends refused',
          });
          return undefined;
        }
        validator ??= z.fromJSONSchema(format.schema as Parameters<typeof z.fromJSONSchema>[0]);
        const cut = info.stopReason === 'max_tokens';
        const checked = checkAnswer({ text, validator, schema: format.schema, repair, cut });
        if (checked.errors.length === 0) {
          const rungs = checked.ladder.filter(
            (r) => r.ok && (r.rung === 'jsonrepair' || r.rung === 'coerce'),
          );
          write(ctx, {
            outcome: checked.repaired ? 'repaired' : 'valid',
            ladder: checked.ladder,
            errors: [],
            value: checked.value,
            next: 'accept',
            why: checked.repaired
              ? `the answer did not match the schema as it came; ${rungs.map((r) => (r.rung === 'coerce' ? `coercion (${r.detail})` : 'jsonrepair')).join(' and ')} made it match, and the repaired answer is the run's answer`
              : 'the answer is JSON that matches the schema: the run ends with it',
          });
          return undefined;
        }
        const found = `${cut ? 'the answer was cut at the output cap, so it is not repaired: ' : ''}${plural(checked.errors.length, 'error')} against the schema (${checked.errors.slice(0, 3).join('; ')}${checked.errors.length > 3 ? '; …' : ''})`;
        if (reasks < maxReasks) {
          reasks += 1;
          write(ctx, {
            outcome: 'invalid',
            ladder: checked.ladder,
            errors: checked.errors,
            next: 'reask',
            why: `${found}${repair && !cut ? `, and the repair ladder cannot fix ${checked.errors.length === 1 ? 'it' : 'them'}` : ''}: the model is asked again, naming ${checked.errors.length === 1 ? 'it' : 'them'} (re-ask ${reasks} of ${maxReasks})`,
          });
          return { kind: 'continue', prompt: reaskPrompt(checked.errors) };
        }
        const spent =
          maxReasks === 1
            ? 'the one re-ask is spent'
            : maxReasks > 0
              ? `the ${maxReasks} re-asks are spent`
              : repair
                ? 're-asks are off'
                : 'the repair and re-asks are off';
        const message = `the answer does not match the schema: ${found}`;
        write(ctx, {
          outcome: 'invalid',
          ladder: checked.ladder,
          errors: checked.errors,
          next: 'run_ends',
          why: `${found}; ${spent}: the run ends with the answer as it is`,
        });
        return { kind: 'stop', reason: 'invalid_answer', message };
      },
    };
  },
});
