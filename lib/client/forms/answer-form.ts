import type { AnswerFault, AnswerFaultKind, AnswerFormat, FaultPlan } from '@/lib/protocol';
import type { NumberProblem } from './number-checks';

/**
 * The playground's structured answer (the run config's `answer`, with the fault plan's `answers`),
 * as data. The schema is held as the text a person types, so a schema that does not parse yet is
 * shown with what to fix instead of being lost; Run waits until it does (`answerProblems`). The
 * checks here are zod-free (the browser's first load carries no schema) and say what the server's
 * schema and the vendors would: a root `{"type": "object"}`, a name the vendors take, OpenAI strict
 * mode's closed objects and required properties.
 */
export interface AnswerForm {
  /** The format's name (OpenAI's `json_schema.name`, Anthropic's answer tool). */
  name: string;
  /** The JSON Schema as typed. */
  schemaText: string;
  /** OpenAI strict mode (the vendor guarantees the schema; Anthropic has no such mode). */
  strict: boolean;
  /** What the simulated model does to its answers, in order: each for its first `times` answers (null: every answer). */
  faults: { kind: AnswerFaultKind; times: number | null }[];
}

/** The answer fault kinds in the order the panel lists them, with what each does to an answer. */
export const ANSWER_FAULT_KINDS: { kind: AnswerFaultKind; label: string; does: string }[] = [
  {
    kind: 'invalid_json',
    label: 'invalid JSON',
    does: 'the JSON comes in a markdown fence with a trailing comma (not on a forced Anthropic tool or in strict mode, whose vendors guarantee JSON)',
  },
  {
    kind: 'breaks_schema',
    label: 'breaks the schema',
    does: 'valid JSON with a required property left out and a number sent as a string (not in strict mode)',
  },
  {
    kind: 'truncated',
    label: 'truncated',
    does: 'the answer runs past the output cap and the vendor cuts it',
  },
  { kind: 'refusal', label: 'refusal', does: 'the model declines to answer (each vendor’s own refusal)' },
];

/** Schemas to start from. */
export const ANSWER_TEMPLATES: {
  id: string;
  label: string;
  name: string;
  schema: Record<string, unknown>;
}[] = [
  {
    id: 'fix-report',
    label: 'a fix report (summary, files changed, done)',
    name: 'report',
    schema: {
      type: 'object',
      properties: {
        summary: { type: 'string', description: 'What was wrong and what changed, in one sentence.' },
        files_changed: { type: 'integer', minimum: 1 },
        done: { type: 'boolean' },
      },
      required: ['summary', 'files_changed', 'done'],
      additionalProperties: false,
    },
  },
  {
    id: 'verdict',
    label: 'a verdict (status from a list, reasons)',
    name: 'verdict',
    schema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['fixed', 'not_fixed', 'needs_human'] },
        reasons: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['status', 'reasons'],
      additionalProperties: false,
    },
  },
  {
    id: 'free',
    label: 'an open object (one text field)',
    name: 'answer',
    schema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    },
  },
];

export const FAULT_TIMES = { min: 1, max: 1000 } as const;

export function answerFromTemplate(id: string, faults: AnswerForm['faults'] = []): AnswerForm {
  const template = ANSWER_TEMPLATES.find((t) => t.id === id) ?? ANSWER_TEMPLATES[0]!;
  return { name: template.name, schemaText: JSON.stringify(template.schema, null, 2), strict: false, faults };
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.parse's complaint with the line and column it points at, where it names a position. */
function jsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}

/** Where a sub-schema sits, for a message: "the root", "properties.summary". */
const where = (path: string[]) => (path.length === 0 ? 'the root' : path.join('.'));

/** What is wrong with a schema's shape, walked from the root (each message says where and what to do). */
function shapeProblems(schema: Schema, strict: boolean, path: string[] = []): string[] {
  const problems: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  for (const type of types)
    if (typeof type !== 'string' || !TYPES.has(type))
      problems.push(
        `${where(path)}: "type" ${JSON.stringify(type)} is not a JSON Schema type; use one of ${[...TYPES].join(', ')}`,
      );
  if (schema.properties !== undefined && !isObject(schema.properties))
    problems.push(`${where(path)}: "properties" must be an object of schemas, one per property`);
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || schema.required.some((k) => typeof k !== 'string'))
      problems.push(`${where(path)}: "required" must be a list of property names`);
    else
      for (const key of schema.required as string[])
        if (!(key in properties))
          problems.push(`${where(path)}: "required" names "${key}", which is not among its properties`);
  }
  const isObjectType = types.includes('object') || isObject(schema.properties);
  if (strict && isObjectType) {
    if (schema.additionalProperties !== false)
      problems.push(`${where(path)}: strict mode needs "additionalProperties": false on every object`);
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).filter((k) => !required.includes(k));
    if (missing.length > 0)
      problems.push(
        `${where(path)}: strict mode needs every property in "required"; add ${missing.map((k) => `"${k}"`).join(', ')}`,
      );
  }
  for (const [key, sub] of Object.entries(properties)) {
    if (!isObject(sub)) problems.push(`${where([...path, 'properties', key])}: must be a schema (an object)`);
    else problems.push(...shapeProblems(sub, strict, [...path, 'properties', key]));
  }
  if (schema.items !== undefined) {
    if (!isObject(schema.items)) problems.push(`${where(path)}: "items" must be a schema (an object)`);
    else problems.push(...shapeProblems(schema.items, strict, [...path, 'items']));
  }
  return problems;
}

/** The schema the text holds, or what to fix before it can be sent. */
export function readAnswerSchema(
  text: string,
  strict: boolean,
): { schema: Schema; problems: [] } | { schema?: undefined; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problems: [`is not JSON: ${jsonError(text, error)}`] };
  }
  if (!isObject(parsed))
    return { problems: ['must be a JSON object: {"type": "object", "properties": {…}, "required": […]}'] };
  if (parsed.type !== 'object')
    return {
      problems: [
        `must have "type": "object" at the root (it has ${parsed.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(parsed.type)}`}): every vendor takes an object as the answer`,
      ],
    };
  const problems = shapeProblems(parsed, strict);
  return problems.length > 0 ? { problems } : { schema: parsed, problems: [] };
}

/** Every part of the structured answer that is wrong now, for the panel and the reason Run waits. */
export function answerProblems(answer: AnswerForm | null): NumberProblem[] {
  if (!answer) return [];
  const problems: NumberProblem[] = [];
  if (!NAME.test(answer.name))
    problems.push({
      field: 'answer-name',
      label: 'answer name',
      message: 'must be 1 to 64 letters, digits, _ or - (no spaces)',
    });
  for (const message of readAnswerSchema(answer.schemaText, answer.strict).problems)
    problems.push({ field: 'answer-schema', label: 'answer schema', message });
  for (const fault of answer.faults) {
    const times = fault.times;
    if (times !== null && !(Number.isInteger(times) && times >= FAULT_TIMES.min && times <= FAULT_TIMES.max))
      problems.push({
        field: `answer-fault-${fault.kind}-times`,
        label: `answer fault “${fault.kind}”`,
        message: `must hit a whole number of answers from ${FAULT_TIMES.min} to ${FAULT_TIMES.max} (or every answer) — it is ${Number.isNaN(times) ? 'empty' : String(times)}`,
      });
  }
  return problems;
}

/** The config's `answer` and the fault plan's `answers` the form stands for (undefined while it has problems or is off). */
export function answerConfig(
  answer: AnswerForm | null,
  simulated: boolean,
): { answer: AnswerFormat; answers?: AnswerFault[] } | undefined {
  if (!answer) return undefined;
  const { schema } = readAnswerSchema(answer.schemaText, answer.strict);
  if (!schema) return undefined;
  // Answer faults are what the simulated model does: a real vendor is sent none.
  const answers: AnswerFault[] = simulated
    ? answer.faults.map((f) => ({
        id: `answer-${f.kind}`,
        enabled: true,
        kind: f.kind,
        ...(f.times !== null ? { times: f.times } : {}),
      }))
    : [];
  return {
    answer: { name: answer.name, schema, strict: answer.strict },
    ...(answers.length > 0 ? { answers } : {}),
  };
}

/** A stored config's answer as the form holds it (null: the config has none). */
export function answerFormOf(format: AnswerFormat | undefined, plan: FaultPlan): AnswerForm | null {
  if (!format) return null;
  return {
    name: format.name,
    schemaText: JSON.stringify(format.schema, null, 2),
    strict: format.strict,
    faults: (plan.answers ?? [])
      .filter((f) => f.enabled)
      .map((f) => ({ kind: f.kind, times: f.times ?? null })),
  };
}
