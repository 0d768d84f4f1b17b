// The JUnit tests validate `npm run sweep --junit` output against lib/testing/fixtures/junit.xsd
// with libxml2's xmllint: find it, install it, or say what to do.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

const path = process.env.XMLLINT_PATH ?? '/usr/bin/xmllint';
ensureDebianPackage({
  candidates: [path],
  pkg: 'libxml2-utils',
  what: 'xmllint',
  instructions:
    `The JUnit report tests need xmllint at ${path} (or set XMLLINT_PATH).\n` +
    'Install it with:  sudo apt-get install -y libxml2-utils',
});
