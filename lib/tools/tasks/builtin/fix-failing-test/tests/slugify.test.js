'use strict';
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
