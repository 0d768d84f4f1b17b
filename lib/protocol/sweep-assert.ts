/**
 * The gate grammar of `npm run sweep -- --assert "…"` and a grid's `assert` list: one metric of
 * a results-table row, a comparator and a number (`done_rate >= 0.9`, `p95_cost <= 0.05`).
 * Parsed by a regular expression, never evaluated as code. Zod-free: the browser may read it.
 */

/** Every metric an assertion can name, with what it measures on one row of the table. */
export const GATE_METRICS = {
  runs: 'runs finished in the row',
  done_rate: 'share of runs whose task verdict was done, 0 to 1',
  completion_rate: 'share of runs whose loop ended complete, 0 to 1',
  unchecked: 'runs the check could not judge',
  errors_seen: 'errors no retry absorbed, summed over the row',
  mean_cost: 'USD per run, mean',
  median_cost: 'USD per run, median',
  p95_cost: 'USD per run, 95th percentile',
  max_cost: 'USD per run, most',
  wasted_cost: 'USD per run billed for failed attempts, mean',
  mean_tokens: 'input + output tokens per run, mean',
  median_tokens: 'input + output tokens per run, median',
  p95_tokens: 'input + output tokens per run, 95th percentile',
  median_ms: 'run time (run clock, ms), median; no figure when no loop completed',
  p95_ms: 'run time (run clock, ms), 95th percentile; no figure when no loop completed',
} as const;
export type GateMetric = keyof typeof GATE_METRICS;
export const GATE_METRIC_NAMES = Object.keys(GATE_METRICS) as GateMetric[];

/** Metrics that are shares from 0 to 1. */
const RATES: ReadonlySet<GateMetric> = new Set(['done_rate', 'completion_rate']);

export const GATE_OPERATORS = ['>=', '<=', '>', '<', '==', '!='] as const;
export type GateOperator = (typeof GATE_OPERATORS)[number];

/** One parsed assertion; `text` is how it was written, normalised (`done_rate >= 0.9`). */
export interface GateAssertion {
  text: string;
  metric: GateMetric;
  op: GateOperator;
  value: number;
}

const HOW = 'write METRIC OP NUMBER, e.g. "done_rate >= 0.9", with OP one of >= <= > < == !=';
const SHAPE =
  /^([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|==|!=|>|<)\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)$/;

/** Edit distance, to name the metric a typo meant. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function unknownMetric(name: string): string {
  const lower = name.toLowerCase();
  const near =
    GATE_METRIC_NAMES.find((m) => m.includes(lower)) ??
    GATE_METRIC_NAMES.map((m) => ({ m, d: distance(lower, m) }))
      .filter((x) => x.d <= 3)
      .sort((x, y) => x.d - y.d)[0]?.m;
  const hint = near ? ` (did you mean ${near}?)` : '';
  return `unknown metric "${name}"${hint}; write one of ${GATE_METRIC_NAMES.join(', ')}`;
}

/**
 * Parses one assertion, or says what to write instead: an unknown metric names the known ones
 * (and the nearest), a bad shape shows the shape, a rate over 1 says to write a share.
 */
export function parseGateAssertion(
  input: string,
): { ok: true; assertion: GateAssertion } | { ok: false; error: string } {
  const text = input.trim();
  const fail = (why: string) => ({ ok: false as const, error: `"${input}": ${why}` });
  if (text === '') return fail(`empty; ${HOW}`);
  const match = SHAPE.exec(text);
  if (!match) {
    const name = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(text)?.[1];
    if (name && !(name in GATE_METRICS)) return fail(unknownMetric(name));
    if (/%\s*$/.test(text)) return fail('write a share, not a percentage: 0.9 for 90 %');
    if (/(^|[^<>=!])=($|[^=<>])/.test(text)) return fail('use == to test equality');
    return fail(HOW);
  }
  const [, name, op, number] = match as unknown as [string, string, GateOperator, string];
  if (!(name in GATE_METRICS)) return fail(unknownMetric(name));
  const metric = name as GateMetric;
  const value = Number(number);
  if (!Number.isFinite(value)) return fail(`${number} is not a finite number; ${HOW}`);
  if (RATES.has(metric) && (value < 0 || value > 1))
    return fail(`${metric} is a share from 0 to 1: write ${value / 100} for ${value} %`);
  return { ok: true, assertion: { text: `${metric} ${op} ${number}`, metric, op, value } };
}

/** Does `actual` satisfy the assertion's comparator? */
export function gateHolds(op: GateOperator, actual: number, expected: number): boolean {
  switch (op) {
    case '>=':
      return actual >= expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '<':
      return actual < expected;
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}
