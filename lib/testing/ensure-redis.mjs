// The sweep tests run BullMQ on a real Redis (lib/sweeps/bullmq-runner.test.ts starts its own
// redis-server on a free localhost port): find it, install it, or say what to do.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

const path = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
ensureDebianPackage({
  candidates: [path],
  pkg: 'redis-server',
  what: 'redis-server',
  instructions:
    `The sweep tests need redis-server at ${path} (or set REDIS_SERVER_PATH).\n` +
    'Install it with:  sudo apt-get install -y redis-server\n' +
    'The tests start and stop their own server on a localhost port; nothing else is configured.',
});
