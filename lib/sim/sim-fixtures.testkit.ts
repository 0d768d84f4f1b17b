import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { Scenario } from '@/lib/tools/scenario';
import { createSimAnthropic } from './anthropic/sim-anthropic';
import { createSimOpenAI } from './openai/sim-openai';
import type { Policy, PolicyTurn } from './types';

/** A small scenario for tests (the real ones live in lib/tools/scenarios). */
export const TEST_SCENARIO: Scenario = {
  id: 'test-add',
  title: 'Fix add',
  summary: 'add() subtracts',
  task: 'The test for add fails. Fix it.',
  files: {
    'src/math.ts': 'export function add(a: number, b: number): number {\n  return a - b;\n}\n',
    'src/math.test.ts': "import { add } from './math';\nexpect(add(2, 3)).toBe(5);\n",
    'README.md': '# Math\n',
  },
  check: async (workspace) => {
    const ok = (workspace.read('src/math.ts') ?? '').includes('a + b');
    return { passed: ok, output: ok ? '1 passed' : 'FAIL src/math.test.ts: expected 5, got -1' };
  },
  tests: ['src/math.test.ts'],
  // Its check is a stand-in that reports no tests by name, and it has no hidden tests.
  testNames: {},
  hidden: { files: {}, names: {} },
  policy: 'worker',
  hints: {
    read: ['src/math.ts', 'src/math.test.ts'],
    search: 'add(',
    fix: { path: 'src/math.ts', find: 'return a - b;', replace: 'return a + b;' },
    summary: 'Fixed add() in src/math.ts: it subtracted instead of adding. The check passes.',
  },
};

export const TOOL_SCHEMAS = [
  {
    name: 'list_files',
    description: 'List files',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'read_file',
    description: 'Read a file',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
      required: ['path'],
    },
  },
  {
    name: 'search',
    description: 'Search',
    input_schema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    },
  },
  {
    name: 'edit_file',
    description: 'Edit',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        old_string: { type: 'string' },
        new_string: { type: 'string' },
      },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'write_file',
    description: 'Write',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  { name: 'run_check', description: 'Run the check', input_schema: { type: 'object', properties: {} } },
];

/** A policy that always answers with the given turn. */
export function fixedPolicy(turn: PolicyTurn): Policy {
  return () => turn;
}

export function anthropicClient(options: {
  policy: Policy;
  seed?: number;
  clock?: VirtualClock;
  promptCache?: boolean;
}): {
  client: Anthropic;
  clock: VirtualClock;
  fetch: typeof fetch;
} {
  const clock = options.clock ?? new VirtualClock();
  const fetch = createSimAnthropic({
    clock,
    random: createRandom(options.seed ?? 1),
    policy: options.policy,
    promptCache: options.promptCache ?? true,
  });
  return {
    client: new Anthropic({ apiKey: 'sim', baseURL: 'http://sim.anthropic.local', fetch, maxRetries: 0 }),
    clock,
    fetch,
  };
}

export function openaiClient(options: { policy: Policy; seed?: number; clock?: VirtualClock }): {
  client: OpenAI;
  clock: VirtualClock;
  fetch: typeof fetch;
} {
  const clock = options.clock ?? new VirtualClock();
  const fetch = createSimOpenAI({ clock, random: createRandom(options.seed ?? 1), policy: options.policy });
  return {
    client: new OpenAI({ apiKey: 'sim', baseURL: 'http://sim.openai.local/v1', fetch, maxRetries: 0 }),
    clock,
    fetch,
  };
}
