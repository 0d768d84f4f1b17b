// Browser tests drive Debian's Chromium: Playwright cannot download its own browsers here.
// Finds it, installs it with apt-get when that is possible, or says plainly what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
const found = () => candidates.find((path) => existsSync(path));

if (!found()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (isRoot && hasApt) {
    console.log('Chromium is missing: installing Debian\'s chromium package (about a minute)…');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  }
}

const path = found();
if (!path) {
  console.error(
    'Browser tests need Chromium at /usr/bin/chromium (or set CHROMIUM_PATH).\n' +
      'Install it with:  sudo apt-get install -y chromium\n' +
      'Playwright\'s own browser download does not work on this network, so `npx playwright install` will not help.',
  );
  process.exit(1);
}
console.log(`Browser tests use ${path}`);
