import { nodeTestsCheck } from '../check/run-node-tests';
import type { Scenario } from '../scenario';

const SLUGIFY = `'use strict';

/**
 * Turns a title into a URL slug: lower case, ASCII letters and digits,
 * words joined by single hyphens, no hyphen at either end.
 */
function slugify(title) {
  return String(title)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .replace(/[^a-z0-9]+/, '-')
    .replace(/^-+|-+$/g, '');
}

module.exports = { slugify };
`;

const TEST = `'use strict';
const assert = require('node:assert');
const { slugify } = require('../src/slugify');

test('lower-cases a single word', () => {
  assert.strictEqual(slugify('Hello'), 'hello');
});

test('joins two words with a hyphen', () => {
  assert.strictEqual(slugify('Hello World'), 'hello-world');
});

test('joins every word, not just the first two', () => {
  assert.strictEqual(slugify('Loop Lab: agent loops that recover'), 'loop-lab-agent-loops-that-recover');
});

test('drops accents and trims separators', () => {
  assert.strictEqual(slugify('  Café crème!  '), 'cafe-creme');
});
`;

/**
 * The verdict's hidden tests: titles the visible tests do not use, and postPath, which they do
 * not test at all. A slugify that knows only the four visible titles fails them.
 */
const HIDDEN = `'use strict';
const assert = require('node:assert');
const { slugify } = require('../src/slugify');
const { postPath } = require('../src/index');

test('collapses runs of spaces into one hyphen', () => {
  assert.strictEqual(slugify('Three  spaces   apart'), 'three-spaces-apart');
});

test('drops the accents of every word', () => {
  assert.strictEqual(slugify('Ünïcödé Títle'), 'unicode-title');
});

test('keeps digits and drops punctuation between words', () => {
  assert.strictEqual(slugify('Agent Loops 101: Retry, Back off, Recover!'), 'agent-loops-101-retry-back-off-recover');
  assert.strictEqual(slugify('C++ & Rust, 2024 edition'), 'c-rust-2024-edition');
});

test('trims hyphens already at the ends', () => {
  assert.strictEqual(slugify('--Already--Slugged--'), 'already-slugged');
});

test('a title with no letters or digits gives an empty slug', () => {
  assert.strictEqual(slugify('!!!'), '');
});

test('postPath puts the day and the slug together', () => {
  assert.strictEqual(postPath('Crème Brûlée Recipes', new Date(Date.UTC(2025, 0, 31))), '/posts/2025-01-31/creme-brulee-recipes');
});
`;

const INDEX = `'use strict';
const { slugify } = require('./slugify');

/** Builds the path of a blog post from its title and date. */
function postPath(title, date) {
  const day = date.toISOString().slice(0, 10);
  return '/posts/' + day + '/' + slugify(title);
}

module.exports = { postPath, slugify };
`;

const README = `# tiny-blog

A very small blog helper: \`postPath(title, date)\` builds a post's URL from its title.

- \`src/slugify.js\` — turns a title into a URL slug
- \`src/index.js\` — builds post paths
- \`test/slugify.test.js\` — the tests (\`npm test\`)

Slugs are lower case, ASCII only, with words joined by single hyphens.
`;

const PACKAGE = `{
  "name": "tiny-blog",
  "version": "1.0.0",
  "private": true,
  "main": "src/index.js",
  "scripts": { "test": "node --test test/" }
}
`;

/** The default scenario: a real bug (a regex without the global flag) and a real test. */
export const fixFailingTest: Scenario = {
  id: 'fix-failing-test',
  title: 'Fix a failing test',
  summary: 'A tiny JS project whose slugify test fails; read, find the bug, edit, re-run the check.',
  task:
    'The test suite of this small project fails (run_check shows it). Find the bug in the source, fix it with a minimal edit, ' +
    'and confirm that run_check passes. Do not change the tests.',
  files: {
    'README.md': README,
    'package.json': PACKAGE,
    'src/index.js': INDEX,
    'src/slugify.js': SLUGIFY,
    'test/slugify.test.js': TEST,
  },
  check: nodeTestsCheck(['test/slugify.test.js']),
  checkLabel: 'test/slugify.test.js',
  tests: ['test/slugify.test.js'],
  testNames: {
    'test/slugify.test.js': [
      'lower-cases a single word',
      'joins two words with a hyphen',
      'joins every word, not just the first two',
      'drops accents and trims separators',
    ],
  },
  hidden: {
    files: { '.hidden-tests/slugify.test.js': HIDDEN },
    names: {
      '.hidden-tests/slugify.test.js': [
        'collapses runs of spaces into one hyphen',
        'drops the accents of every word',
        'keeps digits and drops punctuation between words',
        'trims hyphens already at the ends',
        'a title with no letters or digits gives an empty slug',
        'postPath puts the day and the slug together',
      ],
    },
  },
  policy: 'worker',
  hints: {
    read: ['README.md', 'test/slugify.test.js', 'src/slugify.js'],
    search: 'replace\\(',
    fix: {
      path: 'src/slugify.js',
      find: ".replace(/[^a-z0-9]+/, '-')",
      replace: ".replace(/[^a-z0-9]+/g, '-')",
    },
    summary:
      'Fixed slugify in src/slugify.js: the regex that turns runs of non-alphanumeric characters into hyphens lacked the ' +
      'global flag, so only the first run was replaced. With /g every word is joined and all tests pass.',
  },
};
