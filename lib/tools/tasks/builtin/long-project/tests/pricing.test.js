'use strict';
const assert = require('node:assert');
const { grossPrice, codes } = require('../src/index');

const EXPECTED_GROSS_OF_10000 = {"at":12000,"be":12100,"bg":12000,"cy":11900,"cz":12100,"de":11900,"dk":12500,"es":12100,"fr":12000,"gr":12400,"hr":12500,"hu":12700,"ie":12300,"it":12200,"lt":12100,"lu":11700,"lv":12100,"mt":11800,"nl":12100,"pl":12300,"pt":12300,"se":12500,"si":12200};

codes.forEach(function (code) {
  test('gross price of 100.00 in ' + code, () => {
    assert.strictEqual(grossPrice(code, 10000), EXPECTED_GROSS_OF_10000[code]);
  });
});
