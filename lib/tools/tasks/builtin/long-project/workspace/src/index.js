'use strict';
/** Every region, by code. Add a region: create src/regions/<code>.js and list it here. */
const codes = ["at","be","bg","cy","cz","de","dk","es","fr","gr","hr","hu","ie","it","lt","lu","lv","mt","nl","pl","pt","se","si"];
const regions = {};
codes.forEach(function (code) { regions[code] = require('./regions/' + code); });

function grossPrice(code, netMinor) {
  const r = regions[code];
  if (!r) throw new Error('unknown region ' + code);
  return r.gross(netMinor);
}

module.exports = { regions, grossPrice, codes };
