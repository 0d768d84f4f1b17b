import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import {
  ErrorCategorySchema,
  presetPolicy,
  PRESET_IDS,
  resolveRecovery,
  retryRulesTable,
  type ErrorCategory,
  type RecoveryConfig,
  type RetryRuleVerdict,
  type RetryTableRow,
} from '@/lib/protocol';
import { classifyError, type Classification } from '../recovery';
import { decideRetry } from './decide-retry';
import { backgroundAccount, foregroundAccount, type RetryAccount } from './retry-account';

/** An HTTP error as both SDKs throw it: a status and the vendor's body. */
const http = (status: number, message: string, body: Record<string, string> = {}) =>
  Object.assign(new Error(message), { status, error: { message, ...body } });

/** A real thrown value the classifier names as each kind of the table (`tool` is never a model call's: its verdict is built). */
const SAMPLES: Record<string, () => Classification> = {
  rate_limit: () =>
    classifyError(
      http(429, 'Rate limit reached for requests', { type: 'requests', code: 'rate_limit_exceeded' }),
    ),
  'rate_limit/spent_quota': () =>
    classifyError(
      http(429, 'You exceeded your current quota, please check your plan and billing details.', {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      }),
    ),
  overloaded: () => classifyError(http(529, 'Overloaded', { type: 'overloaded_error' })),
  timeout: () => classifyError(http(408, 'Request Timeout')),
  network: () =>
    classifyError(
      Object.assign(new Error('Connection error.'), {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      }),
    ),
  internal: () => classifyError(http(500, 'Internal server error')),
  parse: () => classifyError(new SyntaxError('Unexpected end of JSON input')),
  state: () => classifyError(http(409, 'Conflict')),
  unknown: () => classifyError(new Error('something nobody planned for')),
  tool: () => ({ category: 'tool', rule: 'built', retryable: true, message: 'tool' }),
  invalid_input: () =>
    classifyError(http(404, 'model: no-such-model not found', { type: 'not_found_error' })),
  authentication: () => classifyError(http(401, 'invalid x-api-key', { type: 'authentication_error' })),
  authorization: () =>
    classifyError(
      http(403, 'Your API key does not have permission to use the specified resource.', {
        type: 'permission_error',
      }),
    ),
  context_length: () =>
    classifyError(
      http(400, 'prompt is too long: 17000 tokens > 16000 maximum', { type: 'invalid_request_error' }),
    ),
};

const keyOf = (row: Pick<RetryTableRow, 'kind'>) =>
  row.kind.lasting ? `${row.kind.category}/${row.kind.lasting}` : row.kind.category;

/** What the retry function really decides for this verdict on this account, on the first failure. */
function decided(account: RetryAccount, verdict: Classification) {
  return decideRetry({ account, attempt: 1, verdict, random: createRandom(3) });
}

function expectAgrees(
  cell: RetryRuleVerdict,
  account: RetryAccount,
  verdict: Classification,
  where: string,
): void {
  const real = decided(account, verdict);
  expect(real.retry, `${where}: the table says ${cell.retried ? 'retried' : 'not retried'}`).toBe(
    cell.retried,
  );
  if (!cell.retried && !real.retry) expect(real.rule, where).toBe(cell.declined);
}

const CONFIGS: Array<[string, RecoveryConfig]> = [
  ...PRESET_IDS.map((id): [string, RecoveryConfig] => [id, resolveRecovery(id)]),
  // Every retry rule, not only the presets' own.
  ['codesmith, retryOn transient', resolveRecovery('codesmith', { retry: { retryOn: 'transient' } })],
  ['codesmith, retryOn everything', resolveRecovery('codesmith', { retry: { retryOn: 'everything' } })],
  [
    'codesmith, stacked layers (fixed)',
    resolveRecovery('codesmith', { sdkMaxRetries: 3, retry: { backoff: 'fixed' } }),
  ],
  ['s11, background on', resolveRecovery('s11', { background: { enabled: true, maxRetries: 2 } })],
  // A policy written out: rows of its own, a kind left to the classifier, a row skipped.
  [
    'a written-out policy',
    resolveRecovery('naive', {
      policy: {
        ...presetPolicy(resolveRecovery('codesmith')),
        name: 'per-kind',
        foreground: {
          ...presetPolicy(resolveRecovery('codesmith')).foreground,
          maxRetries: 5,
          rows: {
            invalid_input: { action: 'retry', budget: 2 },
            rate_limit: { action: 'retry', backoff: { kind: 'fixed', ms: 500 } },
            parse: { action: 'skip' },
          },
        },
      },
    }),
  ],
];

describe('a preset’s retry table agrees with the retry decision, for every category', () => {
  it('lists every error category, and a spent quota beside the rate limit', () => {
    const keys = retryRulesTable(resolveRecovery('codesmith')).rows.map(keyOf);
    expect([...new Set(keys.map((k) => k.split('/')[0]))].sort()).toEqual(
      [...ErrorCategorySchema.options].sort(),
    );
    expect(keys).toContain('rate_limit/spent_quota');
    expect(keys.sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [name, config] of CONFIGS) {
    it(name, () => {
      const table = retryRulesTable(config);
      for (const row of table.rows) {
        const verdict = SAMPLES[keyOf(row)]!();
        // The sample is what the row says it is, as the real classifier names it.
        expect({ category: verdict.category, lasting: verdict.lasting }, keyOf(row)).toEqual({
          category: row.kind.category,
          lasting: row.kind.lasting,
        });
        expectAgrees(
          row.conversation,
          foregroundAccount(config),
          verdict,
          `${name} · ${keyOf(row)} · conversation`,
        );
        expectAgrees(
          row.background,
          backgroundAccount(config),
          verdict,
          `${name} · ${keyOf(row)} · background`,
        );
      }
    });
  }
});

describe('a written-out policy’s table', () => {
  it('names the policy, and each row’s own budget and backoff; a kind without a row is the classifier’s', () => {
    const table = retryRulesTable(CONFIGS.at(-1)![1]);
    expect(table.policy).toBe('per-kind');
    const row = (key: string) => table.rows.find((r) => keyOf(r) === key)!;
    expect(row('invalid_input').terms?.conversation).toBe('2 retries');
    expect(row('rate_limit').terms?.conversation).toBe('a fixed 500 ms');
    expect(row('parse').conversation).toMatchObject({ retried: false, declined: 'category_not_retried' });
    // No row: the classifier's verdict (an expired key is final, a server error is retried).
    expect(row('authentication').conversation).toMatchObject({ retried: false, declined: 'not_retryable' });
    expect(row('internal').conversation).toMatchObject({ retried: true });
    expect(table.budgets.conversation).toMatch(/^5 retries, 1 s × 2ⁿ up to 60 s ±10 %/);
  });
});

describe('the presets’ tables say what their sources do', () => {
  const retried = (config: RecoveryConfig, side: 'conversation' | 'background') =>
    Object.fromEntries(retryRulesTable(config).rows.map((r) => [keyOf(r), r[side].retried]));

  it('CodeSmith: only authentication, permission and context overflow are not retried (a bad request and a spent quota are)', () => {
    const row = retried(resolveRecovery('codesmith'), 'conversation');
    const notRetried = Object.keys(row).filter((k) => !row[k]);
    expect(notRetried.sort()).toEqual(['authentication', 'authorization', 'context_length']);
    // Its background account: network, rate limits (a spent quota is one) and timeouts.
    const bg = retried(resolveRecovery('codesmith'), 'background');
    expect(
      Object.keys(bg)
        .filter((k) => bg[k])
        .sort(),
    ).toEqual(['network', 'rate_limit', 'rate_limit/spent_quota', 'timeout']);
  });

  it('s11: only rate limits and overloads; a spent quota is not retried, and the table names that difference', () => {
    const row = retried(resolveRecovery('s11'), 'conversation');
    expect(
      Object.keys(row)
        .filter((k) => row[k])
        .sort(),
    ).toEqual(['overloaded', 'rate_limit']);
    expect(retryRulesTable(resolveRecovery('s11')).notes.join(' ')).toContain(
      'where this differs from s11: a 429 whose body says the quota is spent is not retried',
    );
  });

  it('no loop retries in naive, course and SDK default; SDK default names the SDK’s own retries beneath', () => {
    for (const id of ['naive', 'course', 'sdk-default'] as const) {
      const table = retryRulesTable(resolveRecovery(id));
      expect(table.rows.every((r) => !r.conversation.retried)).toBe(true);
    }
    expect(retryRulesTable(resolveRecovery('sdk-default')).notes.join(' ')).toMatch(
      /vendor SDK resends a request up to 2 times on HTTP 408, 409, 429 and 5xx/,
    );
  });

  it('every category the table lists has its label, and the context row names where overflow goes', () => {
    const table = retryRulesTable(resolveRecovery('s11'));
    expect(table.rows.every((r) => r.label.length > 0)).toBe(true);
    expect(table.notes.join(' ')).toContain('reactive compact (keep the last 5 messages, once per run)');
    const categories: ErrorCategory[] = table.rows.map((r) => r.kind.category);
    expect(categories).toContain('context_length');
  });
});
