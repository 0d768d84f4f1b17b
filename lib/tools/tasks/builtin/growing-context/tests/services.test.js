'use strict';
const assert = require('node:assert');
const { services } = require('../config/services.json');
const documented = {"accounts":2000,"billing":8000,"catalog":1500,"checkout":6000,"emails":10000,"inventory":2500,"search":1200,"shipping":4000,"reviews":3000,"reports":15000,"payouts":9000,"profiles":1800};

Object.keys(documented).forEach(function (name) {
  test(name + ' timeout matches its runbook', () => {
    assert.strictEqual(services[name].timeoutMs, documented[name], name + ': config says ' + services[name].timeoutMs + ' ms, the runbook says ' + documented[name] + ' ms');
  });
});
