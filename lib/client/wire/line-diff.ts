/** One line of a diff: in both (same), only in the left (removed), only in the right (added). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** What a diff of two texts found, or that the middle was too large to align line by line. */
export interface LineDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** Set when the differing middle was over the cell budget: shown as removed then added, not aligned. */
  unaligned?: string;
}

/** Most cells the longest-common-subsequence table may take (the differing middle's lines multiplied). */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of two texts: the common head and tail kept, the middle aligned by the longest
 * common subsequence of its lines. Two request bodies share most of their history, so the
 * middle is small; a middle over MAX_CELLS is shown whole, removed then added, and says so.
 */
export function lineDiff(left: string, right: string): LineDiff {
  const a = left.split('\n');
  const b = right.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  const lines: DiffLine[] = a.slice(0, head).map(same);
  let unaligned: string | undefined;
  if (midA.length * midB.length > MAX_CELLS) {
    unaligned = `${midA.length.toLocaleString('en-US')} × ${midB.length.toLocaleString('en-US')} differing lines are too many to align: shown removed, then added`;
    lines.push(
      ...midA.map((text): DiffLine => ({ kind: 'removed', text })),
      ...midB.map((text): DiffLine => ({ kind: 'added', text })),
    );
  } else {
    lines.push(...alignMiddle(midA, midB));
  }
  lines.push(...a.slice(a.length - tail).map(same));
  return {
    lines,
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
    ...(unaligned ? { unaligned } : {}),
  };
}

/** The classic LCS table, walked from the start: removed lines before added ones where both differ. */
function alignMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // lcs[i * (m + 1) + j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!) {
      out.push({ kind: 'removed', text: a[i]! });
      i += 1;
    } else {
      out.push({ kind: 'added', text: b[j]! });
      j += 1;
    }
  }
  while (i < n) out.push({ kind: 'removed', text: a[i++]! });
  while (j < m) out.push({ kind: 'added', text: b[j++]! });
  return out;
}
