// Browser tests drive Debian's Chromium: Playwright cannot download its own browsers here.
// Finds it, installs it with apt-get when that is possible, or says plainly what to do.
import { ensureDebianPackage } from '../lib/testing/ensure-debian-package.mjs';

const path = ensureDebianPackage({
  candidates: [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'],
  pkg: 'chromium',
  what: 'Chromium',
  instructions:
    'Browser tests need Chromium at /usr/bin/chromium (or set CHROMIUM_PATH).\n' +
    'Install it with:  sudo apt-get install -y chromium\n' +
    "Playwright's own browser download does not work on this network, so `npx playwright install` will not help.",
});
console.log(`Browser tests use ${path}`);
