'use strict';
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
