import { describe, expect, it } from 'vitest';
import type { AnswerFaultKind, RunConfigInput } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { parseResponseFormat, parseTextFormat, parseToolChoice } from './answer-format';
import { REFUSAL_TEXT } from './policies/answer-format';

const SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string' },
    files_changed: { type: 'integer', minimum: 1 },
    done: { type: 'boolean' },
  },
  required: ['summary', 'files_changed', 'done'],
  additionalProperties: false,
};

const VENDORS = ['sim-anthropic', 'sim-openai', 'sim-openai-responses'] as const;

async function run(vendor: string, extra: Partial<RunConfigInput> = {}, kind?: AnswerFaultKind) {
  const bodies: unknown[] = [];
  const events = await runToEnd(
    {
      provider: { vendor },
      seed: 2,
      answer: { schema: SCHEMA, ...(extra.answer ?? {}) },
      ...(kind ? { faults: { rules: [], tools: [], answers: [{ id: 'a', kind, times: 1 }] } } : {}),
      ...(extra.maxOutputTokens ? { maxOutputTokens: extra.maxOutputTokens } : {}),
    },
    { onVendorRequest: (request) => bodies.push(request.body) },
  );
  const answers = ofType(events, 'llm_call').filter((c) => !c.background);
  const last = answers.at(-1)!;
  const text = (last.message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { events, bodies, last, text };
}

describe('an answer format on the wire', () => {
  it.each(VENDORS)(
    '%s: the request carries the schema its way, and the answer matches it',
    async (vendor) => {
      const { events, text, last, bodies } = await run(vendor);
      expect(terminateOf(events).reason).toBe('end_turn');
      expect(last.stop_reason).toBe('end_turn');
      const value = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(value).sort()).toEqual(['done', 'files_changed', 'summary']);
      expect(typeof value.summary).toBe('string');
      expect(value.files_changed).toBe(1);
      const first = String(bodies[0]);
      if (vendor === 'sim-anthropic') {
        expect(first).toContain('"tool_choice":{"type":"any"}');
        expect(first).toContain('"name":"answer"');
        expect(first).not.toContain('"thinking"');
        // The answer came back as a call to the answer tool; the loop saw it as the answer's text.
        expect(last.vendor_stop_reason).toBe('tool_use');
      } else if (vendor === 'sim-openai') {
        expect(first).toContain('"response_format":{"type":"json_schema","json_schema":{"name":"answer"');
      } else {
        expect(first).toContain('"text":{"format":{"type":"json_schema","name":"answer"');
      }
    },
  );

  it.each(VENDORS)(
    '%s: a refusal fault is the vendor’s refusal, and the run ends refused',
    async (vendor) => {
      const { events, text, last } = await run(vendor, {}, 'refusal');
      expect(last.stop_reason).toBe('refusal');
      expect(text).toBe(REFUSAL_TEXT);
      expect(terminateOf(events).reason).toBe('refusal');
    },
  );

  it('breaks_schema: valid JSON with a required property left out and a number as a string', async () => {
    // The answer the fault spoiled: the first one checked (the mechanism then asks again, and the last answer matches).
    const { events } = await run('sim-openai', {}, 'breaks_schema');
    const checked = ofType(events, 'structured_answer')[0]!;
    const spoiled = ofType(events, 'llm_call').find(
      (c) => !c.background && c.iteration === checked.iteration,
    )!;
    const text = (spoiled.message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(value.files_changed).toBe('1');
    expect(value).not.toHaveProperty('summary');
  });

  it('invalid_json on Chat; a forced Anthropic tool and OpenAI strict mode keep their guarantee', async () => {
    expect((await run('sim-openai', {}, 'invalid_json')).text).toMatch(/^```json\n\{[\s\S]*,\n\}\n```$/);
    const anthropic = (await run('sim-anthropic', {}, 'invalid_json')).text;
    expect(() => JSON.parse(anthropic) as unknown).not.toThrow();
    const strict = await run('sim-openai', { answer: { schema: SCHEMA, strict: true } }, 'breaks_schema');
    expect(JSON.parse(strict.text)).toMatchObject({ files_changed: 1 });
  });

  it.each(VENDORS)('%s: truncated: the answer outgrows the cap and the vendor cuts it', async (vendor) => {
    const { text, last } = await run(vendor, { maxOutputTokens: 400 }, 'truncated');
    expect(last.stop_reason).toBe('max_tokens');
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text.startsWith('{')).toBe(true);
  });
});

describe('an answer fault is an event, like a fault on the transport', () => {
  const CASES: Array<[string, AnswerFaultKind]> = [
    ['sim-openai', 'invalid_json'],
    ['sim-openai', 'breaks_schema'],
    ['sim-anthropic', 'breaks_schema'],
    ['sim-openai-responses', 'truncated'],
    ['sim-anthropic', 'refusal'],
  ];
  it.each(CASES)('%s: %s is a fault_injected event before the answer it spoiled', async (vendor, kind) => {
    const extra = kind === 'truncated' ? { maxOutputTokens: 400 } : {};
    const { events } = await run(vendor, extra, kind);
    const injected = ofType(events, 'fault_injected');
    expect(injected).toHaveLength(1);
    const [fault] = injected;
    expect(fault).toMatchObject({ rule_id: 'a', action: `answer_${kind}` });
    expect(fault!.label).toMatch(new RegExp(`^answer fault "a": .+ \\(answer 1 of 1\\)$`));
    // Written while the spoiled answer was made: the next foreground llm_call is that answer.
    const spoiled = ofType(events, 'llm_call').find((c) => !c.background && c.seq > fault!.seq)!;
    expect(spoiled.iteration).toBe(fault!.iteration);
    // A cut answer goes to the output cap's recovery first; every other is checked, and is not valid.
    if (kind !== 'truncated') {
      const checked = ofType(events, 'structured_answer')[0]!;
      expect(checked.seq).toBeGreaterThan(spoiled.seq);
      expect(checked.outcome).not.toBe('valid');
    } else expect(spoiled.stop_reason).toBe('max_tokens');
    // The same config and seed give the same log, the fault's event included.
    const again = await run(vendor, extra, kind);
    expect(again.events.map((e) => [e.seq, e.ts, e.event])).toEqual(
      events.map((e) => [e.seq, e.ts, e.event]),
    );
  });

  it('a fault the vendor’s guarantee rules out is a warning that says why, once, and no fault_injected', async () => {
    const anthropic = await run('sim-anthropic', {}, 'invalid_json');
    expect(ofType(anthropic.events, 'fault_injected')).toHaveLength(0);
    const warned = ofType(anthropic.events, 'log').filter((e) => e.message.startsWith('answer fault'));
    expect(warned.map((e) => [e.level, e.message])).toEqual([
      [
        'warn',
        'answer fault "a" (invalid_json) cannot apply: the answer is the input of a forced tool call, which the vendor always sends as valid JSON',
      ],
    ]);
    const strict = await run('sim-openai', { answer: { schema: SCHEMA, strict: true } }, 'breaks_schema');
    expect(ofType(strict.events, 'fault_injected')).toHaveLength(0);
    expect(ofType(strict.events, 'log').map((e) => e.message)).toContain(
      'answer fault "a" (breaks_schema) cannot apply: in strict mode the vendor guarantees an answer that is valid JSON and matches the schema',
    );
  });
});

describe('the simulated vendors check an answer format as the real APIs do', () => {
  it('OpenAI Chat: the name is required and patterned; strict mode closes every object', () => {
    expect(() => parseResponseFormat({ type: 'json_schema' })).toThrow(
      "Missing required parameter: 'response_format.json_schema'.",
    );
    expect(() => parseResponseFormat({ type: 'json_schema', json_schema: { name: 'a b' } })).toThrow(
      /Invalid 'response_format.json_schema.name': string does not match pattern/,
    );
    expect(() =>
      parseResponseFormat({
        type: 'json_schema',
        json_schema: {
          name: 'x',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' } } },
        },
      }),
    ).toThrow("'additionalProperties' is required to be supplied and to be false");
    expect(() =>
      parseResponseFormat({
        type: 'json_schema',
        json_schema: {
          name: 'x',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        },
      }),
    ).toThrow(/Missing 'a'/);
    expect(
      parseResponseFormat({ type: 'json_schema', json_schema: { name: 'x', strict: true, schema: SCHEMA } }),
    ).toMatchObject({ name: 'x', strict: true });
    expect(() => parseResponseFormat({ type: 'xml' })).toThrow(/Supported values are/);
  });

  it('Responses: text.format needs its schema', () => {
    expect(() => parseTextFormat({ format: { type: 'json_schema', name: 'x' } })).toThrow(
      "Missing required parameter: 'text.format.schema'.",
    );
    expect(parseTextFormat({ format: { type: 'text' } })).toBeUndefined();
  });

  it('Anthropic: a forced tool must be one of the tools', () => {
    const tools = [{ name: 'answer', description: '', inputSchema: {} }];
    expect(() => parseToolChoice({ type: 'tool', name: 'other' }, tools)).toThrow(
      "Tool 'other' not found in provided tools",
    );
    expect(parseToolChoice({ type: 'tool', name: 'answer' }, tools)).toEqual({
      type: 'tool',
      name: 'answer',
    });
    expect(() => parseToolChoice({ type: 'any' }, [])).toThrow(/only be specified while providing tools/);
  });
});
