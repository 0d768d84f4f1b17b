import { nodeTestsCheck } from '../check/run-node-tests';
import type { Scenario } from '../scenario';

/** Each service's documented request timeout (ms); the config disagrees for one of them. */
const SERVICES: Record<string, { owner: string; timeoutMs: number; retries: number; port: number }> = {
  accounts: { owner: 'identity', timeoutMs: 2_000, retries: 2, port: 7101 },
  billing: { owner: 'payments', timeoutMs: 8_000, retries: 1, port: 7102 },
  catalog: { owner: 'commerce', timeoutMs: 1_500, retries: 3, port: 7103 },
  checkout: { owner: 'commerce', timeoutMs: 6_000, retries: 1, port: 7104 },
  emails: { owner: 'growth', timeoutMs: 10_000, retries: 5, port: 7105 },
  inventory: { owner: 'logistics', timeoutMs: 2_500, retries: 2, port: 7106 },
  search: { owner: 'discovery', timeoutMs: 1_200, retries: 2, port: 7107 },
  shipping: { owner: 'logistics', timeoutMs: 4_000, retries: 3, port: 7108 },
  reviews: { owner: 'community', timeoutMs: 3_000, retries: 2, port: 7109 },
  reports: { owner: 'analytics', timeoutMs: 15_000, retries: 1, port: 7110 },
  payouts: { owner: 'payments', timeoutMs: 9_000, retries: 1, port: 7111 },
  profiles: { owner: 'identity', timeoutMs: 1_800, retries: 2, port: 7112 },
};
const NAMES = Object.keys(SERVICES);
const WRONG = 'shipping';
const WRONG_VALUE = 400;

const ENDPOINTS = [
  'GET /{s}/health',
  'GET /{s}/v1/items',
  'GET /{s}/v1/items/:id',
  'POST /{s}/v1/items',
  'PUT /{s}/v1/items/:id',
  'DELETE /{s}/v1/items/:id',
  'GET /{s}/v1/search',
  'POST /{s}/v1/batch',
  'GET /{s}/v1/export',
  'POST /{s}/v1/import',
  'GET /{s}/v1/stats',
  'GET /{s}/v1/audit',
  'POST /{s}/v1/webhooks',
  'GET /{s}/v1/settings',
  'PUT /{s}/v1/settings',
  'GET /{s}/internal/metrics',
  'POST /{s}/internal/reindex',
  'GET /{s}/internal/queue',
];
const NOTES = [
  'cached 30 s at the edge',
  'paginated, 100 per page',
  'idempotent with a request key',
  'rate limited to 50 rps per caller',
  'reads from the replica',
  'writes through the primary',
  'streams its response',
  'admin only',
];
const INCIDENTS = [
  'a deploy of {s} doubled p95 latency; rolled back after 14 minutes; cause was an unindexed query added in the release.',
  'callers of {s} retried without backoff during a database failover and tripled the load; the retry policy now adds jitter.',
  'the shared cache was unavailable for 40 minutes; {s} degraded to the database as designed and stayed within its alert lines.',
  'a certificate on the {s} load balancer expired at 03:12; the {o} on-call renewed it and added an expiry alert.',
  'a caller lowered its timeout for {s} by mistake and saw client-side 504s while {s} itself was healthy; reverted the next morning.',
  'disk on one {s} node filled with debug logs; log level is now set by the pipeline, not by hand.',
];

/** A runbook of the length real ones reach: the number that matters sits in a sea of procedure. */
function runbook(name: string): string {
  const { owner, timeoutMs, retries, port } = SERVICES[name]!;
  const sections = [
    `# ${name} service runbook\n\nOwner: ${owner} team. Listens on port ${port}. Upstream callers must use a request timeout of ${timeoutMs} ms and at most ${retries} retries; anything shorter drops valid slow requests, anything longer piles up connections during an incident.`,
    `## Deploying\n\nDeploys go through the pipeline only. Before a deploy, check the dashboard for ${name} error rate and p95 latency over the last hour; if either is above its alert line, hold the deploy and page the ${owner} on-call. Roll out to one zone first, wait ten minutes, compare error rates between zones, then continue. A rollback is the previous image tag; never hot-patch a running container.`,
    `## Alerts\n\n- **${name}-latency-high**: p95 above ${Math.round(timeoutMs * 0.8)} ms for five minutes. Check the slowest endpoints on the dashboard, then the database and cache panels. Slow queries are the usual cause; the query log keeps the last hour.\n- **${name}-errors**: 5xx above 1 % for five minutes. Look at the most recent deploy first, then at upstream dependencies.\n- **${name}-saturation**: worker pool above 90 % busy. Scale out by two instances and open an incident if it persists.`,
    `## Dependencies\n\n${name} calls the shared cache (timeout 50 ms, no retries), the ${owner} database (timeout ${Math.round(timeoutMs / 2)} ms) and the event bus (fire and forget). When the cache is down ${name} degrades to the database and its latency roughly doubles; the alert thresholds above account for that.`,
    `## Incident checklist\n\n1. Acknowledge the page and post in the incident channel.\n2. Check recent deploys and configuration changes for ${name} and its callers.\n3. Compare caller-side timeouts with the value at the top of this runbook; a caller timing out earlier than ${timeoutMs} ms shows up as client-side 504s while ${name} itself looks healthy.\n4. Mitigate first (roll back, scale out, shed load), then find the cause.\n5. Write the timeline while it is fresh.`,
    `## Endpoints\n\n| endpoint | p50 | p95 | notes |\n|---|---|---|---|\n${ENDPOINTS.map((e, i) => `| ${e.replace('{s}', name)} | ${20 + ((i * 37 + port) % 90)} ms | ${120 + ((i * 53 + port) % 400)} ms | ${NOTES[(i + port) % NOTES.length]} |`).join('\n')}`,
    `## Past incidents\n\n${INCIDENTS.map((t, i) => `- ${2023 + (i % 2)}-${String(1 + ((i * 5 + port) % 12)).padStart(2, '0')}: ${t.replace(/\{s\}/g, name).replace('{o}', owner)}`).join('\n')}`,
    `## History\n\n${name} was split out of the monolith two years ago. Its timeout was last reviewed in the spring capacity review; the value above is the agreed one and config/services.json must match it.`,
  ];
  return `${sections.join('\n\n')}\n`;
}

function config(): string {
  const entries = NAMES.map(
    (n) =>
      `    "${n}": { "timeoutMs": ${n === WRONG ? WRONG_VALUE : SERVICES[n]!.timeoutMs}, "retries": ${SERVICES[n]!.retries} }`,
  );
  return `{\n  "services": {\n${entries.join(',\n')}\n  }\n}\n`;
}

const TEST = `'use strict';
const assert = require('node:assert');
const { services } = require('../config/services.json');
const documented = ${JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, SERVICES[n]!.timeoutMs])))};

Object.keys(documented).forEach(function (name) {
  test(name + ' timeout matches its runbook', () => {
    assert.strictEqual(services[name].timeoutMs, documented[name], name + ': config says ' + services[name].timeoutMs + ' ms, the runbook says ' + documented[name] + ' ms');
  });
});
`;

/**
 * The verdict's hidden tests: the fix changes the one timeout and leaves every other setting as
 * the runbooks say (the visible test checks timeouts only), with no service added or dropped.
 */
const HIDDEN = `'use strict';
const assert = require('node:assert');
const { services } = require('../config/services.json');
const retries = ${JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, SERVICES[n]!.retries])))};

test('the config lists exactly the services that have runbooks', () => {
  assert.deepStrictEqual(Object.keys(services).sort(), Object.keys(retries).sort());
});

for (const name in retries) {
  test(name + ' retries match its runbook', () => {
    assert.strictEqual(services[name].retries, retries[name]);
  });
}
`;

const README = `# gateway-config

Caller-side settings for the ${NAMES.length} services behind the gateway. Each service's runbook in
\`docs/runbooks/\` states the request timeout callers must use; \`config/services.json\` holds the
values the gateway uses. \`test/services.test.js\` checks that they agree.
`;

const files: Record<string, string> = {
  'README.md': README,
  'config/services.json': config(),
  'test/services.test.js': TEST,
};
for (const name of NAMES) files[`docs/runbooks/${name}.md`] = runbook(name);

/**
 * Twelve long runbooks read one after another: every turn adds about a thousand tokens, so a
 * small-window model (claude-sim-16k, gpt-sim-16k) reaches its window in a dozen turns — the
 * lesson for the context gauge, proactive compaction and the overflow waterfall.
 */
export const growingContext: Scenario = {
  id: 'growing-context',
  title: 'Check twelve runbooks against a config',
  summary: `${NAMES.length} long runbooks and one config value that disagrees: reading them all fills a small context window.`,
  task:
    'Gateway calls to one service time out far too early. Read each runbook in docs/runbooks/, compare the documented timeout with config/services.json, ' +
    'fix the value that disagrees, and make sure run_check passes.',
  files,
  check: nodeTestsCheck(['test/services.test.js']),
  checkLabel: 'test/services.test.js',
  tests: ['test/services.test.js'],
  testNames: { 'test/services.test.js': NAMES.map((n) => `${n} timeout matches its runbook`) },
  hidden: {
    files: { '.hidden-tests/services.test.js': HIDDEN },
    names: {
      '.hidden-tests/services.test.js': [
        'the config lists exactly the services that have runbooks',
        ...NAMES.map((n) => `${n} retries match its runbook`),
      ],
    },
  },
  policy: 'worker',
  hints: {
    read: ['README.md', ...NAMES.map((n) => `docs/runbooks/${n}.md`), 'config/services.json'],
    fix: {
      path: 'config/services.json',
      find: `"${WRONG}": { "timeoutMs": ${WRONG_VALUE},`,
      replace: `"${WRONG}": { "timeoutMs": ${SERVICES[WRONG]!.timeoutMs},`,
    },
    summary:
      `config/services.json gave ${WRONG} a ${WRONG_VALUE} ms timeout, but its runbook says callers must wait ${SERVICES[WRONG]!.timeoutMs} ms — so the gateway gave up on ` +
      `every slow shipping request. Set it to ${SERVICES[WRONG]!.timeoutMs}; every service now matches its runbook.`,
  },
};
