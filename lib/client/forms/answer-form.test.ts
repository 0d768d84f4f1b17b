import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunConfigSchema } from '@/lib/protocol';
import { AnswerFaultSchema } from '@/lib/protocol/faults';
import { parseResponseFormat } from '@/lib/sim/answer-format';
import {
  ANSWER_FAULT_KINDS,
  ANSWER_TEMPLATES,
  answerFromTemplate,
  answerProblems,
  FAULT_TIMES,
  readAnswerSchema,
  type AnswerForm,
} from './answer-form';
import { formFromConfig } from './form-from-config';
import { formProblems } from './form-problems';
import { buildRunRequest, DEFAULT_FORM } from './playground-form';

const withAnswer = (answer: AnswerForm | null, vendor = 'sim-openai') => ({
  ...DEFAULT_FORM,
  vendor,
  answer,
});

/** The schema as the sim's OpenAI Chat takes it (strict mode checked as the API does). */
const vendorTakes = (schema: unknown, strict: boolean) => () =>
  parseResponseFormat({ type: 'json_schema', json_schema: { name: 'answer', strict, schema } });

describe('a structured answer from the control panel', () => {
  it.each(ANSWER_TEMPLATES.map((t) => t.id))(
    'template %s: the server, the mechanism’s validator and the vendor take it; every fault kind with it',
    (id) => {
      const faults = ANSWER_FAULT_KINDS.map((k, i) => ({ kind: k.kind, times: i === 0 ? null : i }));
      const form = withAnswer(answerFromTemplate(id, faults));
      expect(formProblems(form)).toEqual([]);
      const config = RunConfigSchema.parse(buildRunRequest(form).config);
      const template = ANSWER_TEMPLATES.find((t) => t.id === id)!;
      expect(config.answer).toEqual({ name: template.name, schema: template.schema, strict: false });
      expect(config.faults.answers?.map((f) => [f.kind, f.times])).toEqual([
        ['invalid_json', undefined],
        ['breaks_schema', 1],
        ['truncated', 2],
        ['refusal', 3],
      ]);
      // The structured-answer mechanism builds its validator this way (its engine, from the schema).
      expect(() => z.fromJSONSchema(template.schema as Parameters<typeof z.fromJSONSchema>[0])).not.toThrow();
      expect(vendorTakes(template.schema, false)).not.toThrow();
      // Open in playground gives the same form back.
      expect(formFromConfig(config).form.answer).toEqual(form.answer);
    },
  );

  it('off: no answer and no answer faults; a real vendor is sent the answer but no answer fault', () => {
    expect(buildRunRequest(withAnswer(null)).config).not.toHaveProperty('answer');
    const real = RunConfigSchema.parse(
      buildRunRequest(withAnswer(answerFromTemplate('verdict', [{ kind: 'refusal', times: 1 }]), 'anthropic'))
        .config,
    );
    expect(real.answer?.name).toBe('verdict');
    expect(real.faults.answers).toBeUndefined();
  });

  it('a schema that is not JSON says where the parser stopped', () => {
    const text = '{\n  "type": "object",\n  "properties": {},\n}';
    const { problems } = readAnswerSchema(text, false);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^is not JSON: .+ \(line 4, column 1\)$/);
  });

  it('a root that is not an object is refused in the words the server uses, and so is it by the server', () => {
    for (const schema of [{ type: 'array', items: { type: 'string' } }, { properties: {} }]) {
      const form = withAnswer({ ...answerFromTemplate('free'), schemaText: JSON.stringify(schema) });
      expect(answerProblems(form.answer).map((p) => p.message)).toEqual([
        expect.stringMatching(
          /^must have "type": "object" at the root \(it has .+\): every vendor takes an object/,
        ),
      ]);
      const refused = RunConfigSchema.safeParse({
        ...buildRunRequest(withAnswer(answerFromTemplate('free'))).config,
        answer: { schema },
      });
      expect(refused.success).toBe(false);
    }
    expect(readAnswerSchema('[1, 2]', false).problems[0]).toMatch(/^must be a JSON object/);
  });

  it('names a wrong type, a required key that is not a property, and a bad name, each with where it is', () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'int' }, list: { type: 'array', items: 'string' } },
      required: ['n', 'missing'],
    };
    const answer = { ...answerFromTemplate('free'), name: 'my answer', schemaText: JSON.stringify(schema) };
    expect(answerProblems(answer).map((p) => `${p.label} ${p.message}`)).toEqual([
      'answer name must be 1 to 64 letters, digits, _ or - (no spaces)',
      'answer schema the root: "required" names "missing", which is not among its properties',
      'answer schema properties.n: "type" "int" is not a JSON Schema type; use one of object, array, string, number, integer, boolean, null',
      'answer schema properties.list: "items" must be a schema (an object)',
    ]);
    expect(buildRunRequest(withAnswer(answer)).config).not.toHaveProperty('answer');
  });

  it('strict mode: the form asks for what OpenAI’s strict mode needs, exactly when the vendor refuses without it', () => {
    const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const partial = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: {}, additionalProperties: false },
      },
      required: ['a'],
      additionalProperties: false,
    };
    const closed = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(readAnswerSchema(JSON.stringify(open), true).problems).toEqual([
      'the root: strict mode needs "additionalProperties": false on every object',
    ]);
    expect(vendorTakes(open, true)).toThrow(/additionalProperties/);
    expect(readAnswerSchema(JSON.stringify(partial), true).problems).toEqual([
      'the root: strict mode needs every property in "required"; add "b"',
    ]);
    expect(vendorTakes(partial, true)).toThrow(/Missing 'b'/);
    expect(readAnswerSchema(JSON.stringify(closed), true).problems).toEqual([]);
    expect(vendorTakes(closed, true)).not.toThrow();
    // Without strict mode the vendor takes all three, and so does the form.
    for (const schema of [open, partial, closed]) {
      expect(readAnswerSchema(JSON.stringify(schema), false).problems).toEqual([]);
      expect(vendorTakes(schema, false)).not.toThrow();
    }
  });

  it('a fault’s answer count is held to the schema’s bounds', () => {
    for (const times of [FAULT_TIMES.min, FAULT_TIMES.max])
      expect(AnswerFaultSchema.safeParse({ id: 'a', kind: 'refusal', times }).success).toBe(true);
    for (const times of [FAULT_TIMES.min - 1, FAULT_TIMES.max + 1, 2.5, Number.NaN]) {
      expect(AnswerFaultSchema.safeParse({ id: 'a', kind: 'refusal', times }).success, String(times)).toBe(
        false,
      );
      const answer = answerFromTemplate('fix-report', [{ kind: 'refusal', times }]);
      expect(
        answerProblems(answer).map((p) => p.field),
        String(times),
      ).toEqual(['answer-fault-refusal-times']);
    }
  });
});
