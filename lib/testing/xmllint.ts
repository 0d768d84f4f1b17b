import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The JUnit schema the sweep's report is validated against (its source is noted in the file). */
export const JUNIT_XSD = path.join(process.cwd(), 'lib/testing/fixtures/junit.xsd');

/**
 * Validates an XML file against an XSD with libxml2's xmllint (installed for the tests by
 * lib/testing/ensure-xmllint.mjs). Throws when xmllint is missing: a test that cannot validate
 * must fail, not pass.
 */
export function validateXml(file: string, xsd: string = JUNIT_XSD): { valid: boolean; output: string } {
  const xmllint = process.env.XMLLINT_PATH ?? '/usr/bin/xmllint';
  if (!existsSync(xmllint))
    throw new Error(
      `xmllint is not at ${xmllint}: run node lib/testing/ensure-xmllint.mjs (apt-get install libxml2-utils)`,
    );
  const result = spawnSync(xmllint, ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
  return { valid: result.status === 0, output: `${result.stdout}${result.stderr}` };
}
