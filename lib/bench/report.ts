/** Counts of each outcome in a list of outcomes ("3 × timed out; 1 × passed"). */
export function summarize(results: string[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} × ${r}`).join('; ');
}

/** One figure against its target: PASS or MISS, what was measured, the target. */
export function report(name: string, value: string, ok: boolean, target: string): void {
  console.log(`${ok ? 'PASS' : 'MISS'}  ${name}\n      ${value}  (${target})\n`);
}
