import { MAX_TESTS } from './sandbox-limits';

/**
 * The test harness that runs inside a vm context in the check's child process (see
 * sandbox-source.ts). It is plain JavaScript source, evaluated before any workspace code, so
 * it can keep the builtins it relies on in closure variables: a workspace file that later
 * replaces `JSON`, `Array.prototype.push` or the global `test` changes what its own code sees,
 * not how the runner records results.
 *
 * Evaluating it yields `setup(compiled, jsonFiles, entries)`: `compiled` maps each JavaScript
 * file to a function compiled in this context (or to the text of its SyntaxError), `jsonFiles`
 * is one JSON string of the .json files, `entries` one JSON string of the test files to load.
 * `setup` defines a frozen, non-writable `__loopLabRunner` whose methods take no arguments
 * (each call is compiled once, before workspace code runs) and answer with strings and numbers
 * only, so the host never handles an object the workspace made. It walks the entries and the
 * tests with its own cursors: `loadNext()`, then per test `name()`, `file()`, `start()` and `finish()`.
 * It keeps at most MAX_TESTS tests and counts every registration (`registered()`), so a check
 * over the cap can say so instead of dropping tests unseen.
 * A test that returns a promise is awaited: `start()` calls it, the host's call ends, the
 * context's microtasks run (inside the same time limit), and `finish()` reads how it settled.
 */
export const RUNNER_SOURCE = String.raw`
(function () {
  'use strict';
  var define = Object.defineProperty, freeze = Object.freeze, create = Object.create, keys = Object.keys;
  var isArray = Array.isArray, jsonParse = JSON.parse, jsonStringify = JSON.stringify, StringOf = String;
  var hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
  var ErrorProto = Error.prototype, SyntaxErrorOf = SyntaxError, ErrorOf = Error;
  var promiseResolve = Promise.resolve.bind(Promise), thenOf = Function.prototype.call.bind(Promise.prototype.then);
  var MAX_LOGS = 50, MAX_LOG_CHARS = 300, MAX_TESTS = ${MAX_TESTS}, MAX_ERROR_CHARS = 1000, MAX_FRAMES = 3;

  // Arrays filled with defineProperty, never push or index assignment: a setter planted on
  // Array.prototype cannot intercept what the runner records.
  function append(list, value) { define(list, list.length, { value: value, writable: true, enumerable: true, configurable: true }); }
  function clip(text, max) { text = StringOf(text); return text.length > max ? text.slice(0, max) + '…' : text; }

  var logs = [], tests = [], cache = create(null), prefix = [], modules = null, jsonTexts = null, entries = [];
  var nextEntry = 0, cursor = 0, outcome = null, awaited = null, registered = 0;
  var NEVER_SETTLED = 'the promise this test returned never settled (the check has no timers, and import() is not available)';

  function fmt(v) {
    try { var s = jsonStringify(v); return s === undefined ? StringOf(v) : s; } catch (e) { return StringOf(v); }
  }
  function AssertionError(message) { this.name = 'AssertionError'; this.message = message; this.stack = new ErrorOf(message).stack; }
  AssertionError.prototype = create(ErrorProto);
  function fail(message, fallback) { throw new AssertionError(message || fallback); }
  function deepEqual(a, b) {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (isArray(a) !== isArray(b)) return false;
    var ka = keys(a), kb = keys(b);
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
  assert.AssertionError = AssertionError;
  freeze(assert);

  function normalize(path) {
    var out = [];
    path.split('/').forEach(function (part) {
      if (part === '' || part === '.') return;
      if (part === '..') out.pop(); else out.push(part);
    });
    return out.join('/');
  }
  function exists(path) { return hasOwn(modules, path) || hasOwn(jsonTexts, path); }
  function resolve(from, request) {
    var base = request.charAt(0) === '.' ? normalize(from + '/' + request) : normalize(request);
    var tries = [base, base + '.js', base + '.cjs', base + '.json', base + '/index.js'];
    for (var i = 0; i < tries.length; i++) if (exists(tries[i])) return tries[i];
    return null;
  }
  function load(path) {
    if (cache[path]) return cache[path].exports;
    var module = { exports: {} };
    cache[path] = module;
    if (hasOwn(jsonTexts, path)) { module.exports = jsonParse(jsonTexts[path]); return module.exports; }
    var compiled = modules[path];
    if (typeof compiled === 'string') throw new SyntaxErrorOf(compiled + ' (' + path + ')');
    var dir = path.indexOf('/') < 0 ? '' : path.slice(0, path.lastIndexOf('/'));
    // Each file gets a test() of its own, so every test is reported with the file that registered
    // it: code under test that registers tests under a test file's names does not pass for it.
    var own = testIn(path);
    compiled(module.exports, makeRequire(dir), module, path, dir, own, own, api.describe);
    return module.exports;
  }
  function makeRequire(dir) {
    return function require(request) {
      if (request === 'assert' || request === 'node:assert' || request === 'node:assert/strict') return assert;
      var found = resolve(dir, StringOf(request));
      if (found === null) throw new ErrorOf("Cannot find module '" + request + "' from '" + (dir || '.') + "'");
      return load(found);
    };
  }

  /** "Name: message" and the stack frames that point into workspace files, nothing else. */
  function explain(e) {
    var head = e && e.name ? StringOf(e.name) + ': ' : '';
    var text = head + StringOf(e && e.message);
    var stack = e && typeof e.stack === 'string' ? e.stack.split('\n') : [];
    var frames = 0;
    for (var i = 1; i < stack.length && frames < MAX_FRAMES; i++) {
      var m = /\(?([^\s()]+):(\d+):(\d+)\)?\s*$/.exec(stack[i]);
      if (m && hasOwn(modules, m[1])) { text += '\n      at ' + m[1] + ':' + m[2] + ':' + m[3]; frames++; }
    }
    return clip(text, MAX_ERROR_CHARS);
  }

  /**
   * The test() a file registers with; '' for the global one. Every registration is counted; only
   * the first MAX_TESTS are kept (a check over the cap fails).
   */
  function testIn(file) {
    return function test(name, fn) {
      registered++;
      if (tests.length < MAX_TESTS) append(tests, { name: clip(prefix.concat([StringOf(name)]).join(' > '), 200), fn: fn, file: file });
    };
  }
  var api = {
    test: testIn(''),
    describe: function (name, fn) { append(prefix, StringOf(name)); try { fn(); } finally { prefix.length = prefix.length - 1; } },
  };
  freeze(api);
  var log = function () {
    if (logs.length >= MAX_LOGS) return;
    var parts = [];
    for (var i = 0; i < arguments.length; i++) append(parts, typeof arguments[i] === 'string' ? arguments[i] : fmt(arguments[i]));
    append(logs, clip(parts.join(' '), MAX_LOG_CHARS));
  };
  globalThis.console = { log: log, error: log, warn: log, info: log, debug: log };
  globalThis.test = globalThis.it = api.test;
  globalThis.describe = api.describe;

  /** Calls the test; a returned promise (or thenable) is awaited through the context's microtasks. */
  function start(test) {
    outcome = null;
    awaited = null;
    try {
      var value = test.fn();
      if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function') {
        var state = { settled: false, error: '' };
        awaited = state;
        thenOf(promiseResolve(value), function () { state.settled = true; }, function (e) { state.settled = true; state.error = explain(e) || 'failed'; });
        return 1;
      }
      outcome = '';
    } catch (e) {
      outcome = explain(e) || 'failed';
    }
    return 0;
  }

  var runner = freeze({
    /** Loads the next entry: '' when it loaded, else why not. */
    loadNext: function () {
      var entry = entries[nextEntry++];
      // A throw with nothing to say (throw '') is still a file that did not load.
      try { load(entry); return ''; } catch (e) { return explain(e) || 'threw ' + fmt(e); }
    },
    count: function () { return tests.length; },
    /** How many tests were registered, those past the cap included. */
    registered: function () { return registered; },
    /** The name of the test at the cursor. */
    name: function () { return tests[cursor].name; },
    /** The file that registered the test at the cursor ('' for the global test()). */
    file: function () { return tests[cursor].file; },
    /** Runs the test at the cursor; 1 when it returned a promise (settled by the next call), else 0. */
    start: function () { return start(tests[cursor]); },
    /** '' when the test at the cursor passed, else its failure; moves the cursor on. */
    finish: function () {
      var result = outcome !== null ? outcome : awaited !== null && awaited.settled ? awaited.error : NEVER_SETTLED;
      cursor++;
      outcome = null;
      awaited = null;
      return result;
    },
    logs: function () { return logs.join('\n'); },
  });

  return function setup(compiled, jsonFilesJson, entriesJson) {
    modules = compiled;
    jsonTexts = jsonParse(jsonFilesJson);
    entries = jsonParse(entriesJson);
    define(globalThis, '__loopLabRunner', { value: runner, writable: false, configurable: false, enumerable: false });
  };
})()
`;
