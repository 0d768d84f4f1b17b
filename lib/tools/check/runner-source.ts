/**
 * The test harness that runs *inside* the vm context. It is plain JavaScript source, so no
 * host object (and no host Function constructor) is reachable from the workspace's code:
 * files come in as one JSON string and the report goes out as one JSON string.
 *
 * It provides a tiny CommonJS `require` over the workspace files (relative paths, `.js`,
 * `.json`, `index.js`), an `assert` module, `test`/`it`/`describe` and a console that
 * records. Everything runs in one synchronous evaluation, so the vm timeout covers it all.
 */
export const RUNNER_SOURCE = String.raw`
(function (filesJson, entriesJson) {
  var files = JSON.parse(filesJson);
  var entries = JSON.parse(entriesJson);
  var logs = [];
  var tests = [];
  var cache = {};

  function fmt(v) {
    if (typeof v === 'string') return JSON.stringify(v);
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  }
  function AssertionError(message) { this.name = 'AssertionError'; this.message = message; }
  AssertionError.prototype = Object.create(Error.prototype);
  function fail(message, fallback) { throw new AssertionError(message || fallback); }
  function deepEqual(a, b) {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    var ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (var i = 0; i < ka.length; i++) if (!deepEqual(a[ka[i]], b[ka[i]])) return false;
    return true;
  }
  var assert = function (value, message) { if (!value) fail(message, 'expected a truthy value, got ' + fmt(value)); };
  assert.ok = assert;
  assert.equal = function (a, b, m) { if (a != b) fail(m, 'expected ' + fmt(b) + ', got ' + fmt(a)); };
  assert.strictEqual = function (a, b, m) { if (a !== b) fail(m, 'expected ' + fmt(b) + ', got ' + fmt(a)); };
  assert.notStrictEqual = function (a, b, m) { if (a === b) fail(m, 'expected a value other than ' + fmt(b)); };
  assert.deepStrictEqual = function (a, b, m) { if (!deepEqual(a, b)) fail(m, 'expected ' + fmt(b) + ', got ' + fmt(a)); };
  assert.deepEqual = assert.deepStrictEqual;
  assert.throws = function (fn, m) {
    try { fn(); } catch (e) { return; }
    fail(m, 'expected the function to throw');
  };

  function normalize(path) {
    var out = [];
    path.split('/').forEach(function (part) {
      if (part === '' || part === '.') return;
      if (part === '..') out.pop(); else out.push(part);
    });
    return out.join('/');
  }
  function resolve(from, request) {
    var base = request.charAt(0) === '.' ? normalize(from + '/' + request) : normalize(request);
    var tries = [base, base + '.js', base + '.json', base + '/index.js'];
    for (var i = 0; i < tries.length; i++) if (Object.prototype.hasOwnProperty.call(files, tries[i])) return tries[i];
    return null;
  }
  function load(path) {
    if (cache[path]) return cache[path].exports;
    var module = { exports: {} };
    cache[path] = module;
    if (/\.json$/.test(path)) { module.exports = JSON.parse(files[path]); return module.exports; }
    var dir = path.indexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/'));
    var fn = new Function('exports', 'require', 'module', '__filename', '__dirname',
      files[path] + '\n//# sourceURL=' + path);
    fn(module.exports, makeRequire(dir), module, path, dir);
    return module.exports;
  }
  function makeRequire(dir) {
    return function require(request) {
      if (request === 'assert' || request === 'node:assert' || request === 'node:assert/strict') return assert;
      var found = resolve(dir, request);
      if (found === null) throw new Error("Cannot find module '" + request + "' from '" + (dir || '.') + "'");
      return load(found);
    };
  }

  var prefix = [];
  globalThis.console = {
    log: function () { logs.push(Array.prototype.map.call(arguments, String).join(' ')); },
  };
  globalThis.console.error = globalThis.console.warn = globalThis.console.info = globalThis.console.log;
  globalThis.describe = function (name, fn) { prefix.push(name); try { fn(); } finally { prefix.pop(); } };
  globalThis.test = globalThis.it = function (name, fn) { tests.push({ name: prefix.concat([name]).join(' > '), fn: fn }); };

  var loadErrors = [];
  entries.forEach(function (entry) {
    try { load(entry); } catch (e) { loadErrors.push(entry + ': ' + (e && e.name ? e.name + ': ' : '') + (e && e.message)); }
  });
  var results = tests.map(function (t) {
    try { t.fn(); return { name: t.name, ok: true }; }
    catch (e) { return { name: t.name, ok: false, error: (e && e.name ? e.name + ': ' : '') + (e && e.message) }; }
  });
  return JSON.stringify({ results: results, loadErrors: loadErrors, logs: logs });
})
`;
