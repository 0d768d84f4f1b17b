/** The fuzzer's tables and generators: request bodies, resume points, path segments, Host and Origin spellings. */
import fc from 'fast-check';

/** A config that runs (virtual clock, so a created run ends in milliseconds). */
export const VALID_CONFIG = { provider: { vendor: 'sim-openai' }, clock: 'virtual', preset: 'naive' };

/** A JSON value with some of everything a careless or hostile client sends. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    -1,
    0,
    1e308,
    -0,
    2 ** 53,
    '',
    ' ',
    '0x10',
    '2e3',
    'NaN',
    null,
    true,
    [],
    {},
    '__proto__',
    'constructor',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Sets one path of a valid config to junk: the nearest miss is where validation is weakest. */
const mutatedConfig: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.constantFrom(
      ['provider'],
      ['provider', 'vendor'],
      ['provider', 'model'],
      ['provider', 'baseUrl'],
      ['provider', 'keySource'],
      ['scenario'],
      ['task'],
      ['policy'],
      ['preset'],
      ['seed'],
      ['timeScale'],
      ['maxOutputTokens'],
      ['clock'],
      ['budgets', 'maxRunMs'],
      ['budgets', 'maxAttempts'],
      ['budgets', 'maxIterations'],
      ['budgets', 'maxCostUsd'],
      ['recovery', 'retry', 'maxRetries'],
      ['recovery', 'watchdog', 'streamErrorCap'],
      ['recovery', 'fallback', 'model'],
      ['recovery', 'context', 'oldResultMinChars'],
      ['recovery', 'unknownMechanism'],
      ['faults', 'rules'],
      ['faults', 'tools'],
      ['faults', 'rules', '0'],
      ['faults', 'rules', '0', 'action'],
      ['faults', 'rules', '0', 'when'],
      ['faults', 'tools', '0'],
      ['colour'],
    ),
    junk,
  )
  .map(([path, value]) => {
    const config: Record<string, unknown> = structuredClone({
      ...VALID_CONFIG,
      faults: {
        rules: [{ id: 'r', when: { kind: 'always' }, action: { type: 'http_error', status: 529 } }],
        tools: [{ id: 't', tool: '*', kind: 'throw' }],
      },
    });
    let at: Record<string, unknown> = config;
    path.slice(0, -1).forEach((key) => {
      if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
      at = at[key] as Record<string, unknown>;
    });
    at[path.at(-1)!] = value;
    return config;
  });

const deepText = fc
  .integer({ min: 65, max: 20_000 })
  .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** POST /api/runs bodies: mutated configs, junk, non-JSON and deep JSON. */
export const runBodies: fc.Arbitrary<string> = fc.oneof(
  mutatedConfig.map((config) => JSON.stringify({ config })),
  fc
    .record({ config: junk, apiKey: fc.option(junk, { nil: undefined }) })
    .map((body) => JSON.stringify(body)),
  junk.map((value) => JSON.stringify(value) ?? ''),
  fc.string({ maxLength: 60 }),
  deepText.map((deep) => `{"config":${deep}}`),
);

/** POST /api/runs/:id/control bodies. */
export const controlBodies: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      action: fc.oneof(fc.constantFrom('abort', 'set_faults', 'pause', 'abandoned'), junk),
      faults: fc.option(junk, { nil: undefined }),
    })
    .map((b) => JSON.stringify(b)),
  fc
    .record({
      action: fc.constant('set_faults'),
      faults: mutatedConfig.map((c) => (c as { faults?: unknown }).faults),
    })
    .map((b) => JSON.stringify(b)),
  fc.string({ maxLength: 40 }),
  deepText,
);

/** POST /api/runs/import bodies: JSONL with junk lines, half-valid events and deep lines. */
export const importBodies: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      junk.map((v) => JSON.stringify(v) ?? ''),
      fc
        .record({
          run_id: junk,
          seq: junk,
          ts: junk,
          event: fc.constantFrom('run_start', 'llm_call', 'tool_call', 'terminate', 'storage_error', 'nope'),
          iteration: junk,
        })
        .map((e) => JSON.stringify(e)),
      fc
        .record({
          event: fc.constantFrom('llm_call', 'tool_call', 'terminate'),
          iteration: fc.nat(5),
          input_tokens: fc.nat(),
          output_tokens: fc.nat(),
          tool: fc.string(),
          args: junk,
        })
        .map((e) => JSON.stringify(e)),
      fc.string({ maxLength: 30 }),
      deepText,
    ),
    { maxLength: 6 },
  )
  .map((lines) => lines.join('\n'));

const deepOtlpValue = fc.integer({ min: 1, max: 800 }).map((depth) => {
  let value: unknown = { stringValue: 'x' };
  for (let i = 0; i < depth; i += 1)
    value = i % 2 ? { arrayValue: { values: [value] } } : { kvlistValue: { values: [{ key: 'k', value }] } };
  return value;
});

/** POST /api/runs/import bodies in OTLP/JSON: GenAI spans with junk times, ids, kinds and attribute values nested to any depth. */
export const otlpBodies: fc.Arbitrary<string> = fc
  .record({
    traceId: fc.oneof(fc.constant('0af7651916cd43dd8448eb211c80319c'), fc.string({ maxLength: 40 })),
    spanId: fc.oneof(fc.constant('b7ad6b7169203331'), fc.string({ maxLength: 20 })),
    name: fc.oneof(
      fc.constantFrom('chat m', 'execute_tool read_file', 'invoke_agent loop'),
      fc.string({ maxLength: 10 }),
    ),
    kind: fc.oneof(fc.constantFrom(1, 3), junk),
    startTimeUnixNano: fc.oneof(
      fc.constant('1760000000000000000'),
      fc.constantFrom('-1', '1e30', 'abc', '99999999999999999999999'),
      junk,
    ),
    endTimeUnixNano: fc.oneof(fc.constant('1760000001000000000'), junk),
    op: fc.constantFrom('chat', 'execute_tool', 'invoke_agent', 'other'),
    extra: fc.oneof(deepOtlpValue, junk),
    tokens: fc.oneof(
      fc.nat().map((n) => ({ intValue: String(n) })),
      junk,
    ),
  })
  .map(({ op, extra, tokens, ...span }) =>
    JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  ...span,
                  attributes: [
                    { key: 'gen_ai.operation.name', value: { stringValue: op } },
                    { key: 'gen_ai.usage.input_tokens', value: tokens },
                    { key: 'extra', value: extra },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
  );

/** POST /api/prompt-sets bodies: names with control and bidi characters, junk tool names (`__proto__` among them) and texts. */
export const promptSetBodies: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      name: fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.constantFrom('a\u202Eb', 'a\u0000b', '', ' ', 'x'.repeat(101)),
        junk,
      ),
      system: fc.oneof(fc.string({ maxLength: 40 }), junk),
      toolDescriptions: fc.oneof(
        fc.dictionary(
          fc.constantFrom('read_file', 'run_check', '__proto__', 'constructor', 'nope', ''),
          fc.oneof(fc.string({ maxLength: 20 }), junk),
        ),
        junk,
      ),
    })
    .map((body) => JSON.stringify(body)),
  fc.constant('{"name":"p","toolDescriptions":{"__proto__":"x"}}'),
  deepText,
);

/** POST /api/sweeps bodies: grids one field off, and junk. Valid grids stay one run long. */
export const sweepBodies: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      configurations: fc.oneof(fc.constant([{ id: 'naive', preset: 'naive' }]), junk),
      faultPlans: fc.option(fc.oneof(fc.constant([{ id: 'none', plan: { rules: [] } }]), junk), {
        nil: undefined,
      }),
      seeds: fc.oneof(fc.constant({ from: 1, to: 1 }), fc.record({ from: junk, to: junk })),
      scenarios: fc.option(fc.oneof(fc.constant(['fix-failing-test']), junk), { nil: undefined }),
    })
    .map((grid) => JSON.stringify(grid)),
  junk.map((value) => JSON.stringify(value) ?? ''),
  deepText,
);

/** Last-Event-ID / ?after= values. */
export const resumeValues: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0x10',
    '2e3',
    '1.5',
    '-1',
    '-2',
    '+3',
    '01',
    ' 4',
    '1e400',
    '99999999999999999999',
    '',
    '0',
  ),
  fc.nat().map(String),
  fc.string({ maxLength: 12 }),
);

/** Path segments: ids with unicode, slashes, dots and broken percent-encodings. */
export const pathSegments: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', '%2F', '%252F', 'import', 'runs', '%C0%AF'),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => s.replace(/[/?#]/g, '')),
  fc.uuid(),
);

/** Host headers no browser sends that name this machine: each must be refused (403), never read as an IP address. */
export const UNBROWSER_HOSTS = [
  '127.0.0.1.:3000',
  '127.0.0.1.',
  'localhost.:3000',
  '0x7f.1:3000',
  '2130706433:3000',
  '[0:0:0:0:0:0:0:1]:3000',
];
/** Origin headers no browser sends that name this server: each must be refused (403). */
export const UNBROWSER_ORIGINS = [
  'http://evil@127.0.0.1:3000',
  'http://u:p@localhost:3000',
  'http://127.0.0.1.:3000',
  'http://localhost:3000/x',
];
