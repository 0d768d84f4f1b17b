import { nodeTestsCheck } from '../check/run-node-tests';
import type { Scenario } from '../scenario';

/** Line of the log where the root cause is written (the first ERROR). */
export const ROOT_CAUSE_LINE = 1_742;
const LOG_LINES = 2_400;

/** A tiny deterministic generator, so the log is the same bytes in every run and test. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

function buildLog(): string {
  const next = lcg(42);
  const routes = ['/api/posts', '/api/posts/:id', '/api/users/:id', '/api/search', '/healthz'];
  const lines: string[] = [];
  for (let i = 1; i <= LOG_LINES; i++) {
    const t = new Date(Date.UTC(2025, 2, 14, 1, 0, 0) + i * 1_500).toISOString();
    const route = routes[Math.floor(next() * routes.length)]!;
    if (i === ROOT_CAUSE_LINE) {
      lines.push(
        `${t} ERROR db.pool   pool exhausted: 10/10 connections busy, 37 requests waiting. Raise pool.max in config/db.json to at least 25.`,
      );
    } else if (i > ROOT_CAUSE_LINE && i % 40 === 0) {
      lines.push(
        `${t} ERROR http      GET ${route} 503 after 5000ms: timeout acquiring a database connection`,
      );
    } else if (i > ROOT_CAUSE_LINE - 300 && i % 25 === 0) {
      lines.push(`${t} WARN  db.pool   ${8 + Math.floor(next() * 3)}/10 connections busy`);
    } else {
      const ms = 5 + Math.floor(next() * 120);
      lines.push(`${t} INFO  http      GET ${route} 200 ${ms}ms`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const DB_CONFIG = `{
  "host": "db.internal",
  "port": 5432,
  "database": "blog",
  "pool": {
    "min": 2,
    "max": 10,
    "idleTimeoutMs": 30000
  }
}
`;

const TEST = `'use strict';
const assert = require('node:assert');
const config = require('../config/db.json');

test('the pool is large enough for peak traffic (see logs/service.log)', () => {
  assert.ok(config.pool.max >= 25, 'pool.max is ' + config.pool.max + '; peak traffic needs at least 25');
});

test('the pool stays within what the database allows', () => {
  assert.ok(config.pool.max <= 100, 'pool.max is ' + config.pool.max + '; the database allows 100 connections');
  assert.ok(config.pool.min <= config.pool.max, 'pool.min must not exceed pool.max');
});
`;

/**
 * The verdict's hidden tests: the fix raises one limit and leaves the rest of the connection
 * settings alone, and the limit is a number (a string "25" also passes the visible tests).
 */
const HIDDEN = `'use strict';
const assert = require('node:assert');
const config = require('../config/db.json');

test('pool.max is a whole number', () => {
  assert.ok(Number.isInteger(config.pool.max), 'pool.max is ' + JSON.stringify(config.pool.max));
});

test('the service still connects to the same database', () => {
  assert.deepStrictEqual([config.host, config.port, config.database], ['db.internal', 5432, 'blog']);
});

test('the pool keeps its other settings', () => {
  assert.deepStrictEqual([config.pool.min, config.pool.idleTimeoutMs], [2, 30000]);
});
`;

const README = `# blog-service

The blog's API service. Since last night requests fail with 503s at peak time.

- \`logs/service.log\` — last night's log (large: page through it, or search it)
- \`config/db.json\` — database connection settings
- \`test/db-config.test.js\` — checks on the configuration
`;

/**
 * A large log whose answer sits deep inside: reading it whole is truncated, so the model
 * must page with offset/limit or search — the output-truncation lesson.
 */
export const hugeLog: Scenario = {
  id: 'huge-log',
  title: 'Find the root cause in a huge log',
  summary:
    'A 2,400-line log hides one root-cause line; reading it whole gets truncated, paging or search finds it.',
  task:
    'Our service returned 503s last night. Find the root cause in logs/service.log and fix the configuration, then make sure ' +
    'run_check passes.',
  files: {
    'README.md': README,
    'config/db.json': DB_CONFIG,
    'logs/service.log': buildLog(),
    'test/db-config.test.js': TEST,
  },
  check: nodeTestsCheck(['test/db-config.test.js']),
  checkLabel: 'test/db-config.test.js',
  tests: ['test/db-config.test.js'],
  testNames: {
    'test/db-config.test.js': [
      'the pool is large enough for peak traffic (see logs/service.log)',
      'the pool stays within what the database allows',
    ],
  },
  hidden: {
    files: { '.hidden-tests/db-config.test.js': HIDDEN },
    names: {
      '.hidden-tests/db-config.test.js': [
        'pool.max is a whole number',
        'the service still connects to the same database',
        'the pool keeps its other settings',
      ],
    },
  },
  policy: 'worker',
  hints: {
    read: ['README.md', 'logs/service.log', 'config/db.json'],
    search: 'ERROR',
    fix: { path: 'config/db.json', find: '"max": 10', replace: '"max": 25' },
    summary:
      `The first ERROR in logs/service.log (line ${ROOT_CAUSE_LINE}) says the database pool was exhausted (10/10 busy, 37 waiting); ` +
      'the 503s after it are requests timing out while waiting for a connection. Raised pool.max in config/db.json from 10 to 25.',
  },
};
