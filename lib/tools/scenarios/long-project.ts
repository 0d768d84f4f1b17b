import { nodeTestsCheck } from '../check/run-node-tests';
import type { Scenario } from '../scenario';

/** Standard VAT rates; one region's file carries a typo the tests catch. */
const RATES: Record<string, { name: string; rate: number; currency: string }> = {
  at: { name: 'Austria', rate: 0.2, currency: 'EUR' },
  be: { name: 'Belgium', rate: 0.21, currency: 'EUR' },
  bg: { name: 'Bulgaria', rate: 0.2, currency: 'BGN' },
  cy: { name: 'Cyprus', rate: 0.19, currency: 'EUR' },
  cz: { name: 'Czechia', rate: 0.21, currency: 'CZK' },
  de: { name: 'Germany', rate: 0.19, currency: 'EUR' },
  dk: { name: 'Denmark', rate: 0.25, currency: 'DKK' },
  es: { name: 'Spain', rate: 0.21, currency: 'EUR' },
  fr: { name: 'France', rate: 0.2, currency: 'EUR' },
  gr: { name: 'Greece', rate: 0.24, currency: 'EUR' },
  hr: { name: 'Croatia', rate: 0.25, currency: 'EUR' },
  hu: { name: 'Hungary', rate: 0.27, currency: 'HUF' },
  ie: { name: 'Ireland', rate: 0.23, currency: 'EUR' },
  it: { name: 'Italy', rate: 0.22, currency: 'EUR' },
  lt: { name: 'Lithuania', rate: 0.21, currency: 'EUR' },
  lu: { name: 'Luxembourg', rate: 0.17, currency: 'EUR' },
  lv: { name: 'Latvia', rate: 0.21, currency: 'EUR' },
  mt: { name: 'Malta', rate: 0.18, currency: 'EUR' },
  nl: { name: 'Netherlands', rate: 0.21, currency: 'EUR' },
  pl: { name: 'Poland', rate: 0.23, currency: 'PLN' },
  pt: { name: 'Portugal', rate: 0.23, currency: 'EUR' },
  se: { name: 'Sweden', rate: 0.25, currency: 'SEK' },
  si: { name: 'Slovenia', rate: 0.22, currency: 'EUR' },
};
const BUGGY = 'pt';
const CODES = Object.keys(RATES);

/** A region module: real code plus the kind of bulk that makes reading every file expensive. */
function regionFile(code: string): string {
  const { name, rate, currency } = RATES[code]!;
  const written = code === BUGGY ? '0.32' : String(rate);
  return `'use strict';

/**
 * ${name} (${code.toUpperCase()}).
 *
 * Prices are stored net, in minor units (cents), and shown gross. The rate below is the
 * standard rate; reduced rates (food, books, transport) are not modelled yet — see the
 * README for the plan. Rounding follows the half-up rule used by the invoicing service.
 */
const region = {
  code: '${code}',
  name: '${name}',
  currency: '${currency}',
  vatRate: ${written},
  decimals: ${currency === 'HUF' ? 0 : 2},
};

/** Gross price in minor units: net plus VAT, rounded half up. */
function gross(netMinor) {
  return Math.round(netMinor * (1 + region.vatRate));
}

/** A display string such as "12.34 ${currency}". */
function format(minor) {
  const major = minor / 100;
  return major.toFixed(region.decimals) + ' ${currency}';
}

/** Invoice lines for one order: net, VAT and gross per item. */
function invoiceLines(items) {
  return items.map(function (item) {
    const total = gross(item.netMinor * item.quantity);
    return {
      sku: item.sku,
      quantity: item.quantity,
      net: format(item.netMinor * item.quantity),
      vat: format(total - item.netMinor * item.quantity),
      gross: format(total),
    };
  });
}

module.exports = { region, gross, format, invoiceLines };
`;
}

const INDEX = `'use strict';
/** Every region, by code. Add a region: create src/regions/<code>.js and list it here. */
const codes = ${JSON.stringify(CODES)};
const regions = {};
codes.forEach(function (code) { regions[code] = require('./regions/' + code); });

function grossPrice(code, netMinor) {
  const r = regions[code];
  if (!r) throw new Error('unknown region ' + code);
  return r.gross(netMinor);
}

module.exports = { regions, grossPrice, codes };
`;

const TEST = `'use strict';
const assert = require('node:assert');
const { grossPrice, codes } = require('../src/index');

const EXPECTED_GROSS_OF_10000 = ${JSON.stringify(Object.fromEntries(CODES.map((c) => [c, Math.round(10_000 * (1 + RATES[c]!.rate))])))};

codes.forEach(function (code) {
  test('gross price of 100.00 in ' + code, () => {
    assert.strictEqual(grossPrice(code, 10000), EXPECTED_GROSS_OF_10000[code]);
  });
});
`;

/** Net amounts (minor units) the hidden tests price; the visible test prices only 10000. */
const HIDDEN_AMOUNTS = [1, 999, 1_999, 12_345, 250_000];

/**
 * The verdict's hidden tests: every region's gross price of other amounts, from each region's
 * own module (not through index.js's list), and a Portuguese invoice. Code that special-cases
 * the visible test's one amount fails them.
 */
const HIDDEN = `'use strict';
const assert = require('node:assert');

const EXPECTED = ${JSON.stringify(Object.fromEntries(CODES.map((c) => [c, HIDDEN_AMOUNTS.map((n) => [n, Math.round(n * (1 + RATES[c]!.rate))])])))};

// Plain loops: region code loaded inside a test cannot empty them by replacing Array.prototype.forEach.
for (const code in EXPECTED) {
  test('gross price of other amounts in ' + code, () => {
    const region = require('../src/regions/' + code);
    const pairs = EXPECTED[code];
    for (let i = 0; i < pairs.length; i++) assert.strictEqual(region.gross(pairs[i][0]), pairs[i][1], code + ': gross of ' + pairs[i][0]);
  });
}

test('an invoice line in pt', () => {
  const { invoiceLines } = require('../src/regions/pt');
  assert.deepStrictEqual(invoiceLines([{ sku: 'A-1', netMinor: 1999, quantity: 3 }]), [
    { sku: 'A-1', quantity: 3, net: '59.97 EUR', vat: '13.79 EUR', gross: '73.76 EUR' },
  ]);
});
`;

const README = `# shop-pricing

Gross prices for ${CODES.length} EU regions. Each region lives in its own module under
\`src/regions/\`; \`src/index.js\` loads them all. \`test/pricing.test.js\` checks the gross
price of 100.00 in every region against the standard VAT rate.
`;

const files: Record<string, string> = {
  'README.md': README,
  'src/index.js': INDEX,
  'test/pricing.test.js': TEST,
};
for (const code of CODES) files[`src/regions/${code}.js`] = regionFile(code);

/**
 * Many similar files: a worker that reads them one by one grows its context every turn —
 * the lesson for old-result compaction and the context budget.
 */
export const longProject: Scenario = {
  id: 'long-project',
  title: 'Fix one wrong rate among many files',
  summary: `${CODES.length} region modules; one has a typo in its VAT rate. Reading every file makes the context grow.`,
  task: 'One region in this pricing project computes the wrong gross price (run_check shows which). Fix it, and make sure run_check passes.',
  files,
  check: nodeTestsCheck(['test/pricing.test.js']),
  checkLabel: 'test/pricing.test.js',
  tests: ['test/pricing.test.js'],
  testNames: { 'test/pricing.test.js': CODES.map((c) => `gross price of 100.00 in ${c}`) },
  hidden: {
    files: { '.hidden-tests/pricing.test.js': HIDDEN },
    names: {
      '.hidden-tests/pricing.test.js': [
        ...CODES.map((c) => `gross price of other amounts in ${c}`),
        'an invoice line in pt',
      ],
    },
  },
  policy: 'worker',
  hints: {
    read: ['README.md', 'test/pricing.test.js', 'src/index.js', ...CODES.map((c) => `src/regions/${c}.js`)],
    search: 'vatRate: 0\\.\\d+',
    fix: { path: `src/regions/${BUGGY}.js`, find: 'vatRate: 0.32', replace: 'vatRate: 0.23' },
    summary:
      'src/regions/pt.js had its VAT rate typed as 0.32 instead of 0.23 (digits swapped), so Portugal priced 100.00 at 132.00. ' +
      'Corrected it to 0.23; every region now passes.',
  },
};
