'use strict';
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
