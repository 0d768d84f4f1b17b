import { RUNNER_SOURCE } from './runner-source';

/**
 * The program a check's child process runs (`node -e`, so it reads no file from disk; the
 * permission model then denies every file, child process and worker). It reads one JSON
 * request from stdin — `{ nonce, files, entries, timeoutMs }`, plain strings only — runs the
 * workspace's tests in a vm context through the harness, and writes one JSON report, tagged
 * with the nonce, to file descriptor 3: the runner's own channel. Everything it needs
 * (`fs.writeSync`, `JSON.stringify`, the nonce) is captured before any workspace code loads,
 * and stdout/stderr are never read for results, so printing a report forges nothing.
 *
 * The vm context is defence in depth; the boundary is the process: empty environment, no
 * file system, heap cap, and a wall-clock limit the parent enforces with SIGKILL.
 */
export const SANDBOX_SOURCE = String.raw`
'use strict';
const fs = require('node:fs');
const vm = require('node:vm');
const writeSync = fs.writeSync, readFileSync = fs.readFileSync;
const stringify = JSON.stringify, parse = JSON.parse, now = performance.now.bind(performance);
const exit = process.exit.bind(process);
// Nothing outside the vm context needs to load a module again: should workspace code ever
// reach this realm, it finds no require, no getBuiltinModule and no way to build code from
// strings (--disallow-code-generation-from-strings; the vm context keeps its own setting).
for (const name of ['require', 'module', 'exports', '__filename', '__dirname']) delete globalThis[name];
for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen']) delete process[name];
const HARNESS = ${JSON.stringify(RUNNER_SOURCE)};

let request;
try { request = parse(readFileSync(0, 'utf8')); } catch (e) { exit(0); } // parent went away: nothing to do
const nonce = String(request.nonce), timeoutMs = Number(request.timeoutMs);
const deadline = now() + timeoutMs;

function send(body) {
  const bytes = Buffer.from(stringify(Object.assign({ nonce: nonce }, body)));
  let at = 0;
  while (at < bytes.length) {
    try { at += writeSync(3, bytes, at, bytes.length - at); }
    catch (e) { if (e.code !== 'EAGAIN') throw e; }
  }
}

const context = vm.createContext(Object.create(null), {
  name: 'check', microtaskMode: 'afterEvaluate', codeGeneration: { strings: true, wasm: false },
});
const setup = vm.runInContext(HARNESS, context, { filename: 'check-runner.js' });
const compiled = vm.runInContext('Object.create(null)', context);
const jsonFiles = {};
const PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', 'test', 'it', 'describe'];
for (const path of Object.keys(request.files)) {
  const text = String(request.files[path]);
  if (/\.json$/.test(path)) { jsonFiles[path] = text; continue; }
  try {
    compiled[path] = vm.compileFunction(text, PARAMS, { parsingContext: context, filename: path });
  } catch (e) {
    compiled[path] = (e instanceof SyntaxError ? 'SyntaxError: ' : 'Error: ') + (e instanceof Error ? e.message : 'could not compile');
  }
}
setup(compiled, stringify(jsonFiles));

let timedOut = false;
/** Runs one runner call under what is left of the time limit; only a string or number comes back. */
function call(code, want, maxChars) {
  const left = Math.floor(deadline - now());
  if (left <= 0) { timedOut = true; return undefined; }
  try {
    const value = new vm.Script(code, { filename: 'check.js' }).runInContext(context, { timeout: left });
    if (typeof value === 'string') return want === 'string' ? value.slice(0, maxChars || 1500) : undefined;
    return typeof value === want ? value : undefined;
  } catch (e) {
    // Never read the thrown value: it may be the workspace's own object (a getter, a proxy).
    // The runner catches every throw of the tests, so an escape here is the vm timeout.
    if (now() >= deadline - 5) timedOut = true;
    return undefined;
  }
}

const loadErrors = [];
const results = [];
for (const entry of request.entries) {
  if (timedOut) break;
  const error = call('__loopLabRunner.load(' + stringify(String(entry)) + ')', 'string');
  if (error === undefined) loadErrors.push(entry + ': ' + (timedOut ? 'timed out while loading' : 'the runner gave no answer'));
  else if (error !== '') loadErrors.push(entry + ': ' + error);
}
const count = timedOut ? 0 : Math.min(500, call('__loopLabRunner.count()', 'number') || 0);
for (let i = 0; i < count && !timedOut; i++) {
  const name = (call('__loopLabRunner.name(' + i + ')', 'string') || 'test ' + (i + 1)).slice(0, 300);
  const error = call('__loopLabRunner.run(' + i + ')', 'string');
  if (timedOut) results.push({ name: name, ok: false, error: 'timed out' });
  else results.push(error === '' ? { name: name, ok: true } : { name: name, ok: false, error: error || 'the runner gave no answer' });
}
const logText = timedOut ? undefined : call('__loopLabRunner.logs()', 'string', 16000);
const logs = logText ? logText.split('\n').slice(0, 50).map((line) => line.slice(0, 300)) : [];
send({ results: results, loadErrors: loadErrors, logs: logs, timedOut: timedOut });
exit(0);
`;
