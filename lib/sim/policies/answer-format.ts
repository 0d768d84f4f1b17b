import type { AnswerFault, AnswerFaultKind } from '@/lib/protocol';
import { ANSWER_TOOL_DESCRIPTION } from '@/lib/dialects/response-format';
import type { Policy, PolicyRequest, PolicyTool } from '../types';

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the simulated model says when a refusal fault hits its answer. */
export const REFUSAL_TEXT = "I'm sorry, but I can't provide that answer.";

/**
 * An answer fault as it strikes (`applied`), or as it is passed over because the vendor's
 * guarantee rules it out (a forced tool's input is always JSON; a strict-mode answer always
 * matches its schema): `label` says what the fault did, or why it could not.
 */
export interface AnswerFaultReport {
  fault: AnswerFault;
  applied: boolean;
  label: string;
}

/** What each answer fault does to the answer, in words. */
const FAULT_WORDS: Record<AnswerFaultKind, string> = {
  invalid_json: 'the answer is not valid JSON (in a markdown fence, with a trailing comma)',
  breaks_schema:
    'the answer is valid JSON that breaks the schema (a required property left out, a number sent as a string)',
  truncated: 'the answer runs past the output cap, and the vendor cuts it',
  refusal: 'the model refuses to answer',
};

/** Which hit of its fault this answer is: "answer 1 of 2", or "answer 3; it hits every answer". */
function hitWords(fault: AnswerFault, hit: number): string {
  return fault.times === undefined
    ? `answer ${hit}; it hits every answer`
    : `answer ${hit} of ${fault.times}`;
}

/**
 * The simulated model under an answer format: when its turn is the answer (no tool call), the
 * answer is JSON built from the schema — as text (OpenAI Chat's `response_format`, Responses'
 * `text.format`) or as the input of the tool a forced `tool_choice` makes it call (Anthropic).
 * A forced tool_choice is honoured as the API does: `tool` always calls that tool, `any` always
 * calls one. `faults` (the run's fault plan, `answers`) spoil the first answers on demand; a
 * vendor's guarantee holds where it has one (a tool's input and a strict-mode answer are valid
 * JSON; a strict-mode answer matches its schema). Each fault that strikes is reported to
 * `onFault` (the run writes it as a `fault_injected` event), and so, once, is a fault the vendor's
 * guarantee rules out.
 */
export function withAnswerFormat(
  policy: Policy,
  faults: readonly AnswerFault[] = [],
  onFault?: (report: AnswerFaultReport) => void,
): Policy {
  const hits = new Map<string, number>();
  const passedOver = new Set<string>();
  const hasHitsLeft = (f: AnswerFault) =>
    f.enabled && (f.times === undefined || (hits.get(f.id) ?? 0) < f.times);
  const nextFault = (
    applies: (kind: AnswerFaultKind) => boolean,
    guarantee: string,
  ): AnswerFaultKind | undefined => {
    const fault = faults.find((f) => hasHitsLeft(f) && applies(f.kind));
    // A fault with hits left that this vendor rules out, before the one that strikes: said once.
    for (const skipped of faults) {
      if (skipped === fault) break;
      if (!hasHitsLeft(skipped) || applies(skipped.kind) || passedOver.has(skipped.id)) continue;
      passedOver.add(skipped.id);
      onFault?.({
        fault: skipped,
        applied: false,
        label: `answer fault "${skipped.id}" (${skipped.kind}) cannot apply: ${guarantee}`,
      });
    }
    if (!fault) return undefined;
    const hit = (hits.get(fault.id) ?? 0) + 1;
    hits.set(fault.id, hit);
    onFault?.({
      fault,
      applied: true,
      label: `answer fault "${fault.id}": ${FAULT_WORDS[fault.kind]} (${hitWords(fault, hit)})`,
    });
    return fault.kind;
  };

  return (request, random) => {
    const turn = policy(request, random);
    const choice = request.toolChoice;
    const forced = choice?.type === 'tool' || choice?.type === 'any';
    if (!request.answerFormat && !forced) return turn;
    if (turn.toolCalls.length > 0 && choice?.type !== 'tool') return turn;

    const material = firstSentence(turn.text ?? '') || 'Done.';
    if (request.answerFormat) {
      const { schema, strict } = request.answerFormat;
      const fault = nextFault(
        (kind) => !(strict && (kind === 'invalid_json' || kind === 'breaks_schema')),
        'in strict mode the vendor guarantees an answer that is valid JSON and matches the schema',
      );
      if (fault === 'refusal') return { thinking: turn.thinking, refusal: REFUSAL_TEXT, toolCalls: [] };
      return { thinking: turn.thinking, text: answerText(schema, material, fault, request), toolCalls: [] };
    }
    // A forced tool: the answer is the input of the tool it must call.
    const tool = answerTool(request);
    if (!tool) return turn;
    const fault = nextFault(
      (kind) => kind !== 'invalid_json',
      'the answer is the input of a forced tool call, which the vendor always sends as valid JSON',
    );
    if (fault === 'refusal') return { thinking: turn.thinking, refusal: REFUSAL_TEXT, toolCalls: [] };
    return {
      thinking: turn.thinking,
      toolCalls: [{ name: tool.name, argsText: answerText(tool.inputSchema, material, fault, request) }],
    };
  };
}

/** The tool a forced tool_choice makes the model call: the one named, or the one that takes the answer. */
function answerTool(request: PolicyRequest): PolicyTool | undefined {
  const choice = request.toolChoice;
  if (choice?.type === 'tool') return request.tools.find((t) => t.name === choice.name);
  return request.tools.find((t) => t.description === ANSWER_TOOL_DESCRIPTION) ?? request.tools.at(-1);
}

function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** The answer's text under a fault (none: the JSON of a value that matches the schema). */
function answerText(
  schema: Schema,
  material: string,
  fault: AnswerFaultKind | undefined,
  request: PolicyRequest,
): string {
  const value = valueFor(schema, material);
  switch (fault) {
    case undefined:
    case 'refusal':
      return JSON.stringify(value);
    case 'invalid_json':
      // What models write when nothing holds them to JSON: a fence around it and a trailing comma.
      return '```json\n' + JSON.stringify(value, null, 2).replace(/\n}$/, ',\n}') + '\n```';
    case 'breaks_schema':
      return JSON.stringify(breakValue(schema, value));
    case 'truncated':
      return JSON.stringify(padValue(schema, value, request.maxTokens));
  }
}

/** A value that matches `schema`, its strings from the model's own answer. */
export function valueFor(schema: Schema, material: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, valueFor(isSchema(sub) ? sub : {}, material)]),
      );
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const item = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: Math.max(1, min) }, () => valueFor(item, material));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      return material.slice(0, max);
    }
  }
}

/** The value with its first required property left out and its first number sent as a string. */
function breakValue(schema: Schema, value: unknown): unknown {
  if (!isSchema(value)) return value;
  const out: Record<string, unknown> = { ...value };
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [];
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const numeric = Object.keys(properties).find((k) => typeof out[k] === 'number');
  if (numeric !== undefined) out[numeric] = String(out[numeric]);
  const dropped = required.find((k) => k !== numeric) ?? required[0];
  if (dropped !== undefined) delete out[dropped];
  return out;
}

/** The value with its first string grown past the output cap (the vendor cuts it mid-string). */
function padValue(schema: Schema, value: unknown, maxTokens: number): unknown {
  if (!isSchema(value)) return value;
  const key = Object.keys(value).find((k) => typeof value[k] === 'string') ?? 'details';
  const words = Array.from({ length: maxTokens + 50 }, (_, i) => `step${i % 10}`).join(' ');
  return { ...value, [key]: `${String(value[key] ?? '')} ${words}` };
}
