/**
 * The program of the check launcher (`node -e`, an empty environment): a small process that
 * starts the sandbox children for the server and relays their pipes, one JSON message a line.
 *
 * Why a process of its own: starting a child blocks the thread that starts it until the child
 * has exec'd (fork copies the parent's page tables, then waits for the child to be scheduled).
 * From a server holding hundreds of megabytes on a busy machine that is tens to hundreds of
 * milliseconds per check with the server's event loop stopped, so every other run's timers
 * fire that late. The launcher is small, and it is the one that waits.
 *
 * In (stdin): `{ op: 'spawn', id, command, args, nice, maxReportBytes, maxStderrChars }` (what it relays
 * of each pipe: a flood ends there, the server stops the child once past the first), `{ op: 'stdin', id, data }` (written,
 * then the child's stdin is closed), `{ op: 'kill', id, signal }` (SIGINT: interrupt the tests, past
 * their CPU time; anything else: SIGKILL). Out (stdout): `{ id, op: 'pid', pid }`,
 * `{ id, op: 'report', data }` (fd 3, the report channel, base64), `{ id, op: 'stderr', data }`,
 * `{ id, op: 'error', message }`, `{ id, op: 'close', code, signal }`. When its stdin closes
 * (the server is gone), it kills every child it started and exits.
 */
export const LAUNCHER_SOURCE = String.raw`
'use strict';
const { spawn } = require('node:child_process');
const { setPriority } = require('node:os');
const children = new Map();
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const handle = (m) => {
  if (m.op === 'spawn') {
    let child;
    try {
      child = spawn(m.command, m.args, { env: {}, cwd: '/', stdio: ['pipe', 'ignore', 'pipe', 'pipe'] });
    } catch (error) {
      send({ id: m.id, op: 'error', message: String(error && error.message) });
      send({ id: m.id, op: 'close', code: null, signal: null });
      return;
    }
    if (child.pid !== undefined) {
      try { setPriority(child.pid, m.nice); } catch {}
    }
    children.set(m.id, child);
    send({ id: m.id, op: 'pid', pid: child.pid === undefined ? null : child.pid });
    let reportBytes = 0, stderrChars = 0;
    child.stdio[3].on('data', (chunk) => {
      if (reportBytes > m.maxReportBytes) return;
      reportBytes += chunk.length;
      send({ id: m.id, op: 'report', data: chunk.toString('base64') });
    });
    child.stdio[3].on('error', () => {});
    child.stderr.on('data', (chunk) => {
      if (stderrChars >= m.maxStderrChars) return;
      const text = chunk.toString('utf8');
      stderrChars += text.length;
      send({ id: m.id, op: 'stderr', data: text });
    });
    child.stdin.on('error', () => {});
    child.on('error', (error) => send({ id: m.id, op: 'error', message: error.message }));
    child.on('close', (code, signal) => {
      children.delete(m.id);
      send({ id: m.id, op: 'close', code, signal });
    });
  } else if (m.op === 'stdin') {
    children.get(m.id)?.stdin.end(m.data);
  } else if (m.op === 'kill') {
    children.get(m.id)?.kill(m.signal === 'SIGINT' ? 'SIGINT' : 'SIGKILL');
  }
};
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  pending += text;
  for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
    const line = pending.slice(0, at);
    pending = pending.slice(at + 1);
    if (line) handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;
