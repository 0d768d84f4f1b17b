'use strict';
const assert = require('node:assert');
const { services } = require('../config/services.json');
const retries = {"accounts":2,"billing":1,"catalog":3,"checkout":1,"emails":5,"inventory":2,"search":2,"shipping":3,"reviews":2,"reports":1,"payouts":1,"profiles":2};

test('the config lists exactly the services that have runbooks', () => {
  assert.deepStrictEqual(Object.keys(services).sort(), Object.keys(retries).sort());
});

for (const name in retries) {
  test(name + ' retries match its runbook', () => {
    assert.strictEqual(services[name].retries, retries[name]);
  });
}
