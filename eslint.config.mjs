import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const framework = ['next', 'next/*', 'react', 'react-dom', 'react/*', 'zustand', 'zustand/*', '@tanstack/*'];

/**
 * The order of lib/'s rooms: a room's code imports only rooms of a lower rank (tests and test
 * support may reach anything). Equal ranks do not import each other.
 */
const LAYER_RANK = {
  protocol: 0,
  clock: 0,
  config: 0,
  tokens: 1,
  trajectory: 1,
  // The mechanism vocabulary (table, glossary, defaults in words): below lessons, which teach it.
  mechanisms: 0.5,
  lessons: 1,
  // The run view's pure fold and the why lines it checks: what the browser draws, the server sends for a
  // finished run and the fault matrix holds to the events; above the vocabulary, below all three.
  'run-view': 1.5,
  store: 2,
  // One run's metrics from its log (MetricsFold): read by sweeps and compare alike.
  metrics: 2,
  otel: 1,
  dialects: 2,
  client: 2,
  providers: 3,
  faults: 3,
  tools: 4,
  sim: 5,
  engine: 5,
  // Recording a run's traffic and replaying it as a vendor: over the simulated vendors' dialect errors, under the runtime.
  cassettes: 5.5,
  runtime: 6,
  sweeps: 7,
  compare: 8,
  'run-threads': 8,
  server: 9,
  matrix: 11,
  cli: 11,
  bench: 11,
  audit: 11,
  readme: 11,
  testing: 10,
};

// A new room must take its place in the order before its code is linted.
for (const room of readdirSync(new URL('./lib/', import.meta.url), { withFileTypes: true })) {
  if (room.isDirectory() && !(room.name in LAYER_RANK))
    throw new Error(`lib/${room.name} has no rank in LAYER_RANK (eslint.config.mjs)`);
}

/** Packages that only run on the server: never in browser code. */
const serverOnly = [
  'piscina',
  'bullmq',
  'ioredis',
  'better-sqlite3',
  'pg',
  '@opentelemetry/*',
  'esbuild',
  'node:*',
  'server-only',
];
const serverLib = [
  'config',
  'engine',
  'server',
  'store',
  'sim',
  'cassettes',
  'tools',
  'runtime',
  'providers',
  'faults',
  'tokens',
  'sweeps',
  'run-threads',
  'metrics',
  'otel',
  'bench',
  'cli',
  'matrix',
  'audit',
];
const tests = ['**/*.test.ts', '**/*.test.tsx', '**/*.testkit.ts', '**/fixtures/**', 'lib/testing/**'];

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * A relative specifier as the alias names it — `../runtime/run-log` from a file in lib/engine/ is
 * `@/lib/runtime/run-log` — so a relative import is ranked like an aliased one. Anything that
 * leaves the repo, or is not relative, is returned as written.
 */
function aliasOf(specifier, filename) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return specifier;
  const target = path.relative(ROOT, path.resolve(path.dirname(filename), specifier));
  return target.startsWith('..') || path.isAbsolute(target)
    ? specifier
    : `@/${target.split(path.sep).join('/')}`;
}

/**
 * The restricted patterns applied to relative imports, each resolved to its alias first
 * (no-restricted-imports compares the text as written, so `../runtime/run-log` would pass it).
 * Static imports, re-exports and `import()` alike.
 */
const relativeImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Relative imports are held to the same room rules as @/ imports.' },
    schema: [{ type: 'array', items: { type: 'object' } }],
  },
  create(context) {
    const rules = (context.options[0] ?? []).map(({ regex, message }) => ({
      re: new RegExp(regex),
      message,
    }));
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const alias = aliasOf(source.value, context.filename);
      if (alias === source.value) return;
      const hit = rules.find(({ re }) => re.test(alias));
      if (hit) context.report({ node: source, message: `'${source.value}' is ${alias}: ${hit.message}` });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
const layersPlugin = { rules: { 'relative-imports': relativeImports } };

const noVitest = {
  name: 'vitest',
  message: 'Production code never imports vitest: test helpers live in *.testkit.ts files or lib/testing.',
};
/** Code that runs in the browser: the views, the browser's lib and the run view's fold below it. */
const browser = ['components/**/*.{ts,tsx}', 'lib/client/**/*.{ts,tsx}', 'lib/run-view/**/*.{ts,tsx}'];

/** One rule set for static, dynamic and relative imports: `import(...)` and `../room/x` are held to the same patterns. */
function restrict(patterns) {
  const sources = patterns.flatMap((p) =>
    p.regex ? [{ regex: p.regex, message: p.message }] : p.group.map((g) => ({ g, message: p.message })),
  );
  const toRegex = (g) => `^${g.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`;
  return {
    'no-restricted-imports': ['error', { patterns }],
    'no-restricted-syntax': [
      'error',
      ...sources.map(({ g, regex, message }) => ({
        selector: `ImportExpression[source.value=/${(regex ?? toRegex(g)).replace(/\//g, '\\/')}/]`,
        message: `import(): ${message}`,
      })),
    ],
    'layers/relative-imports': [
      'error',
      sources.map(({ g, regex, message }) => ({ regex: regex ?? toRegex(g), message })),
    ],
  };
}

/**
 * A mechanism module is one folder under lib/mechanisms/ spanning the layers: each file sits at
 * the rank of the room that reads it (lib/mechanisms/modules/ lists them, one file per rank).
 * defaults.ts, about.ts and protocol.ts are read by lib/protocol (about.ts and defaults.ts
 * zod-free, for the browser's first load), lesson.ts by lib/lessons, view.ts by lib/run-view,
 * engine.ts by lib/engine. lib/mechanisms/module.ts, the types and helpers every about.ts uses,
 * sits at lib/protocol's rank with them.
 */
const MECHANISMS_BUT_LOWEST = '^@/lib/mechanisms(?!/module$|/[a-z-]+/(defaults|about|protocol)$)(/.*)?$';
const LOWEST_ONLY =
  "below lib/mechanisms, only the modules' lowest files are read (lib/mechanisms/module, lib/mechanisms/modules/about, protocol and each folder's defaults, about and protocol).";
const MODULE_FILE_RANK = { defaults: 0, about: 0, protocol: 0, lesson: 1, view: 1.5, engine: 5 };
const MODULE_FILE_ROOM = {
  defaults: 'protocol',
  about: 'protocol',
  protocol: 'protocol',
  lesson: 'lessons',
  view: 'run-view',
  engine: 'engine',
};
/** Files of lib/mechanisms outside the module folders held at a module file's rank. */
const MODULE_FILE_EXTRA = { about: ['lib/mechanisms/module.ts'] };

function moduleFileRules() {
  return Object.entries(MODULE_FILE_RANK).map(([file, rank]) => {
    const room = MODULE_FILE_ROOM[file];
    // The room it is read by, and every room above it, are out of reach; lib/mechanisms itself is
    // reachable only from the files above rank 0.5 (a protocol-rank file reads its own folder only).
    const above = Object.entries(LAYER_RANK)
      .filter(([other, r]) => other !== 'mechanisms' && other !== room && r >= rank)
      .map(([other]) => other);
    const patterns = [
      { group: ['@/app/*', '@/components/*'], message: 'lib/ never imports from app/ or components/.' },
      {
        group: [...above.flatMap((o) => [`@/lib/${o}`, `@/lib/${o}/*`])],
        message: `lib/mechanisms/*/${file}.ts is read by lib/${room} (rank ${rank}): it imports only what that room may.`,
      },
    ];
    // A protocol-rank file reads nothing of lib/mechanisms but lib/mechanisms/module and the modules' lowest files.
    if (rank < LAYER_RANK.mechanisms) patterns.push({ regex: MECHANISMS_BUT_LOWEST, message: LOWEST_ONLY });
    patterns.push({ group: framework, message: 'lib/ below the client layer is framework-free.' });
    return {
      files: [`lib/mechanisms/*/${file}.ts`, ...(MODULE_FILE_EXTRA[file] ?? [])],
      ignores: tests,
      rules: restrict(patterns),
    };
  });
}

function layerRules() {
  const configs = [];
  for (const [room, rank] of Object.entries(LAYER_RANK)) {
    const above = Object.entries(LAYER_RANK)
      .filter(([other, r]) => other !== room && r >= rank)
      .map(([other]) => other);
    const patterns = [
      { group: ['@/app/*', '@/components/*'], message: 'lib/ never imports from app/ or components/.' },
    ];
    if (room !== 'client')
      patterns.push({ group: framework, message: 'lib/ below the client layer is framework-free.' });
    // The rooms below the mechanisms read the modules' lowest lists (lib/mechanisms/modules/about, protocol).
    const belowModules = rank < LAYER_RANK.mechanisms;
    if (above.length > 0)
      patterns.push({
        group: above
          .filter((o) => !(belowModules && o === 'mechanisms'))
          .flatMap((o) => [`@/lib/${o}`, `@/lib/${o}/*`]),
        message: `lib/${room} (rank ${rank}) imports only lower rooms; see LAYER_RANK.`,
      });
    if (room === 'store')
      patterns.push({
        group: ['@/lib/lessons', '@/lib/lessons/*'],
        message:
          'The store reads no lesson wording: what it lists comes from lib/protocol and lib/mechanisms.',
      });
    if (belowModules) patterns.push({ regex: MECHANISMS_BUT_LOWEST, message: LOWEST_ONLY });
    if (room === 'client')
      patterns.push({
        group: [...serverLib.flatMap((o) => [`@/lib/${o}`, `@/lib/${o}/*`]), ...serverOnly],
        message: 'Browser code reaches the server only through lib/client and HTTP.',
      });
    configs.push({
      files: [`lib/${room}/**/*.{ts,tsx,mjs}`],
      ignores: tests,
      plugins: { layers: layersPlugin },
      rules: restrict(patterns),
    });
  }
  configs.push({
    // The browser reaches the server only through lib/client and HTTP.
    files: ['components/**/*.{ts,tsx}'],
    ignores: tests,
    plugins: { layers: layersPlugin },
    rules: restrict([
      {
        group: [...serverLib.flatMap((o) => [`@/lib/${o}`, `@/lib/${o}/*`]), ...serverOnly],
        message: 'Browser code reaches the server only through lib/client and HTTP.',
      },
    ]),
  });
  return configs;
}

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      // A task folder's files are the task's bytes, in the task's own language and style.
      'lib/tools/tasks/builtin/*/{workspace,tests,hidden}/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.tsx', 'lib/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...layerRules(),
  ...moduleFileRules(),
  {
    // Test support is named for what it is: only tests, *.testkit.ts helpers, fixtures and lib/testing import vitest.
    files: ['**/*.{ts,tsx}'],
    ignores: tests,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noVitest] }] },
  },
  {
    // Browser code takes a value from lib/protocol by its module's path: the index loads every schema (types are free).
    files: browser,
    ignores: tests,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            noVitest,
            {
              name: '@/lib/protocol',
              allowTypeImports: true,
              message:
                "Browser code imports a value from lib/protocol by path (e.g. '@/lib/protocol/models'), never through the index, which loads every schema.",
            },
          ],
        },
      ],
    },
  },
  {
    // The server's environment is read in one module; scripts (bench, audit, readme, the API's scripts) read their own knobs.
    files: ['lib/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    ignores: [...tests, 'lib/config/**', 'lib/bench/**', 'lib/audit/**', 'lib/readme/**', 'scripts/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment through lib/config/server-env (serverEnv, processEnv).',
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
