'use strict';
const assert = require('node:assert');
const config = require('../config/db.json');

test('the pool is large enough for peak traffic (see logs/service.log)', () => {
  assert.ok(config.pool.max >= 25, 'pool.max is ' + config.pool.max + '; peak traffic needs at least 25');
});

test('the pool stays within what the database allows', () => {
  assert.ok(config.pool.max <= 100, 'pool.max is ' + config.pool.max + '; the database allows 100 connections');
  assert.ok(config.pool.min <= config.pool.max, 'pool.min must not exceed pool.max');
});
