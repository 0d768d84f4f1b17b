// The sweep tests run BullMQ on a real Redis (lib/sweeps/bullmq-runner.test.ts starts its own
// redis-server on a free localhost port). Finds the binary, installs Debian's redis-server
// with apt-get when that is possible, or says plainly what to do — as e2e/ensure-chromium.mjs
// does for the browser.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

if (!existsSync(path)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (isRoot && hasApt) {
    console.log("redis-server is missing: installing Debian's redis-server package…");
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server', { stdio: 'inherit' });
  }
}

if (!existsSync(path)) {
  console.error(
    `The sweep tests need redis-server at ${path} (or set REDIS_SERVER_PATH).\n` +
      'Install it with:  sudo apt-get install -y redis-server\n' +
      'The tests start and stop their own server on a localhost port; nothing else is configured.',
  );
  process.exit(1);
}
