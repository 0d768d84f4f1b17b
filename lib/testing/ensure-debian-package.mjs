// Real parts the tests need (Debian's Chromium, redis-server, xmllint) are found, installed with
// apt-get when that is possible (root and apt present), or the run stops saying plainly what
// to do. Used by e2e/ensure-chromium.mjs, lib/testing/ensure-redis.mjs and lib/testing/ensure-xmllint.mjs.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Returns the first existing path of `candidates`, installing `pkg` first when none exists and
 * apt-get can run; exits 1 with `instructions` when it still cannot be found.
 */
export function ensureDebianPackage({ candidates, pkg, what, instructions }) {
  const found = () => candidates.filter(Boolean).find((path) => existsSync(path));
  if (!found() && canApt()) {
    console.log(`${what} is missing: installing Debian's ${pkg} package…`);
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`, {
      stdio: 'inherit',
    });
  }
  const path = found();
  if (!path) {
    console.error(instructions);
    process.exit(1);
  }
  return path;
}

function canApt() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) return false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
