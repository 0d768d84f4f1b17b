import { RUNNER_SOURCE } from './runner-source';
import { MAX_TESTS } from './sandbox-limits';

/**
 * The program a check's child process runs (`node -e`, so it reads no file from disk; the
 * permission model then denies every file, child process and worker). It reads one JSON
 * request from stdin — `{ nonce, files, entries, timeoutMs, clock }`, strings and numbers — runs the
 * workspace's tests in a vm context through the harness, and writes one JSON report, tagged
 * with the nonce, to file descriptor 3: the runner's own channel. stdout/stderr are never read
 * for results, so printing a report forges nothing.
 *
 * Workspace code must not be able to change the report on its way out, even if it reached
 * this realm. So, before any workspace code loads:
 * - every builtin the program uses afterwards is captured (uncurried, like Node's own
 *   primordials), every runner call is compiled, and the report is built by concatenating
 *   strings, each quoted by the captured `JSON.stringify` — no object, array or prototype
 *   method of this realm is touched once workspace code has run;
 * - `import()` anywhere in the vm context is refused with an error of the context's own realm
 *   (without a callback Node would reject it with an error of this realm, a way out);
 * - the child runs with `--frozen-intrinsics`, so this realm's builtins cannot be changed.
 *
 * The time limit (`clock: 'cpu'`): `timeoutMs` of the process's CPU time, its start included.
 * Between runner calls the child reads its own (`process.cpuUsage`); during one, the parent,
 * which reads the same figure from /proc, sends SIGINT once it is past the limit, and every call
 * runs with `breakOnSigint`, so an endless loop (in a test or in the microtasks after it) is
 * interrupted and the report still names the tests that finished. A call that ends by an
 * interruption while the child's CPU time is past the limit timed out; the parent's figure is
 * never ahead of the child's own (the same kernel count, rounded down to ticks), so an
 * interruption always finds it past. A SIGINT between calls is swallowed by a listener set
 * first thing. With `clock: 'wall'` (no /proc to read) the limit is wall time, a vm timeout.
 *
 * The vm context is defence in depth; the boundary is the process: empty environment, no
 * file system, heap cap, and the parent's SIGKILL past the limit and its grace.
 */
export const SANDBOX_SOURCE = String.raw`
'use strict';
// First thing: a SIGINT from the parent that lands between runner calls must not end the child
// (the child checks its CPU time there itself); during a call, breakOnSigint interrupts it.
process.on('SIGINT', () => {});
const fs = require('node:fs');
const vm = require('node:vm');
const uncurry = Function.prototype.bind.bind(Function.prototype.call);
const writeSync = fs.writeSync, readFileSync = fs.readFileSync, bufferFrom = Buffer.from.bind(Buffer);
const stringify = JSON.stringify, parse = JSON.parse, now = performance.now.bind(performance), floor = Math.floor;
const sliceOf = uncurry(String.prototype.slice), splitOf = uncurry(String.prototype.split), createObject = Object.create;
const byteCount = uncurry(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get);
const runScript = uncurry(vm.Script.prototype.runInContext);
const exit = process.exit.bind(process), cpuUsage = process.cpuUsage.bind(process);
// Nothing outside the vm context needs to load a module again: should workspace code ever
// reach this realm, it finds no require, no getBuiltinModule and no way to build code from
// strings (--disallow-code-generation-from-strings; the vm context keeps its own setting).
for (const name of ['require', 'module', 'exports', '__filename', '__dirname']) delete globalThis[name];
for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen']) delete process[name];
const HARNESS = ${JSON.stringify(RUNNER_SOURCE)};

let request;
try { request = parse(readFileSync(0, 'utf8')); } catch (e) { exit(0); } // parent went away: nothing to do
const nonce = String(request.nonce), timeoutMs = Number(request.timeoutMs), cpuClock = request.clock === 'cpu';
const budgetUs = timeoutMs * 1000;
/** Has this process used its CPU time (microseconds, its start included: what the parent reads from /proc)? */
function cpuSpent() { const used = cpuUsage(); return used.user + used.system >= budgetUs; }
const entries = request.entries.map(String);

let refusal;
/** import() inside the check: refused with an error of the context's realm, never one of this realm. */
function refuseImport() { throw new refusal('import() is not available in the check: use require()'); }
const context = vm.createContext(Object.create(null), {
  name: 'check', microtaskMode: 'afterEvaluate', codeGeneration: { strings: true, wasm: false },
  importModuleDynamically: refuseImport,
});
refusal = vm.runInContext('TypeError', context);
const scriptOptions = { filename: 'check.js', importModuleDynamically: refuseImport };
const setup = new vm.Script(HARNESS, { filename: 'check-runner.js', importModuleDynamically: refuseImport }).runInContext(context);
const compiled = vm.runInContext('Object.create(null)', context);
const jsonFiles = {};
const PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', 'test', 'it', 'describe'];
for (const path of Object.keys(request.files)) {
  const text = String(request.files[path]);
  if (/\.json$/.test(path)) { jsonFiles[path] = text; continue; }
  try {
    compiled[path] = vm.compileFunction(text, PARAMS, { parsingContext: context, filename: path, importModuleDynamically: refuseImport });
  } catch (e) {
    compiled[path] = (e instanceof SyntaxError ? 'SyntaxError: ' : 'Error: ') + (e instanceof Error ? e.message : 'could not compile');
  }
}
setup(compiled, stringify(jsonFiles), stringify(entries));
// Every runner call, compiled now: later calls build nothing, so they read no option object
// that workspace code could have reached.
const RUNNER = {
  load: new vm.Script('__loopLabRunner.loadNext()', scriptOptions),
  count: new vm.Script('__loopLabRunner.count()', scriptOptions),
  registered: new vm.Script('__loopLabRunner.registered()', scriptOptions),
  name: new vm.Script('__loopLabRunner.name()', scriptOptions),
  file: new vm.Script('__loopLabRunner.file()', scriptOptions),
  start: new vm.Script('__loopLabRunner.start()', scriptOptions),
  finish: new vm.Script('__loopLabRunner.finish()', scriptOptions),
  logs: new vm.Script('__loopLabRunner.logs()', scriptOptions),
};
const loadScript = RUNNER.load, countScript = RUNNER.count, registeredScript = RUNNER.registered, nameScript = RUNNER.name, fileScript = RUNNER.file;
const startScript = RUNNER.start, finishScript = RUNNER.finish, logsScript = RUNNER.logs;
const entryCount = entries.length;
const deadline = now() + timeoutMs;

// From here on, workspace code runs: only captured functions, primitives and string concatenation.
let timedOut = false;
/**
 * Runs one runner call under what is left of the time limit (its microtasks included: an
 * async test settles within it); only a string or number comes back.
 */
function call(script, want, maxChars) {
  const options = createObject(null);
  if (cpuClock) {
    if (cpuSpent()) { timedOut = true; return undefined; }
    options.breakOnSigint = true;
  } else {
    const left = floor(deadline - now());
    if (left <= 0) { timedOut = true; return undefined; }
    options.timeout = left;
  }
  try {
    const value = runScript(script, context, options);
    if (typeof value === 'string') return want === 'string' ? sliceOf(value, 0, maxChars || 1500) : undefined;
    return typeof value === want ? value : undefined;
  } catch (e) {
    // Never read the thrown value: it may be the workspace's own object (a getter, a proxy).
    // The runner catches every throw of the tests, so an escape here is the parent's SIGINT
    // (or the vm timeout) once the time is spent.
    if (cpuClock ? cpuSpent() : now() >= deadline - 5) timedOut = true;
    return undefined;
  }
}

let loadErrorsJson = '', loadErrorCount = 0;
function addLoadError(text) { loadErrorsJson += (loadErrorCount++ > 0 ? ',' : '') + stringify(text); }
for (let i = 0; i < entryCount; i++) {
  if (timedOut) break;
  const entry = entries[i];
  const error = call(loadScript, 'string');
  if (error === undefined) addLoadError(entry + ': ' + (timedOut ? 'timed out while loading' : 'the runner gave no answer'));
  else if (error !== '') addLoadError(entry + ': ' + error);
}
let resultsJson = '', resultCount = 0;
function addResult(name, file, error) {
  resultsJson += (resultCount++ > 0 ? ',' : '') + '{"name":' + stringify(name) + ',"file":' + stringify(file) + ',"ok":' + (error === '' ? 'true' : 'false,"error":' + stringify(error)) + '}';
}
const counted = timedOut ? 0 : call(countScript, 'number');
const count = counted === undefined || counted < 0 ? 0 : counted > ${MAX_TESTS} ? ${MAX_TESTS} : floor(counted);
// Every registration, those past the cap included (the runner counts them without keeping them).
const registeredCount = timedOut ? undefined : call(registeredScript, 'number');
const registered = registeredCount !== undefined && registeredCount >= count ? floor(registeredCount) : count;
for (let i = 0; i < count && !timedOut; i++) {
  const named = call(nameScript, 'string');
  const name = sliceOf(named === undefined ? 'test ' + (i + 1) : named, 0, 300);
  const filed = timedOut ? undefined : call(fileScript, 'string');
  const file = sliceOf(filed === undefined ? '' : filed, 0, 300);
  if (!timedOut) call(startScript, 'number');
  const error = timedOut ? undefined : call(finishScript, 'string');
  if (timedOut) addResult(name, file, 'timed out');
  else addResult(name, file, error === undefined ? 'the runner gave no answer' : error);
}
const logText = timedOut ? undefined : call(logsScript, 'string', 16000);
let logsJson = '';
if (logText) {
  const lines = splitOf(logText, '\n');
  const lineCount = lines.length > 50 ? 50 : lines.length;
  for (let i = 0; i < lineCount; i++) logsJson += (i > 0 ? ',' : '') + stringify(sliceOf(lines[i], 0, 300));
}
const report = '{"nonce":' + stringify(nonce) + ',"registered":' + stringify(registered) + ',"results":[' + resultsJson + '],"loadErrors":[' + loadErrorsJson +
  '],"logs":[' + logsJson + '],"timedOut":' + (timedOut ? 'true' : 'false') + '}';
const bytes = bufferFrom(report);
const size = byteCount(bytes);
let at = 0;
while (at < size) {
  try { at += writeSync(3, bytes, at, size - at); }
  catch (e) { if (e.code !== 'EAGAIN') throw e; }
}
exit(0);
`;
