import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

const kinds = (text: ReturnType<typeof lineDiff>) =>
  text.lines.map((l) => `${l.kind === 'same' ? ' ' : l.kind === 'added' ? '+' : '-'}${l.text}`);

describe('lineDiff', () => {
  it('keeps what both bodies share and marks what one side dropped and the other added', () => {
    const before = ['{', '  "role": "assistant",', '  "signature": "sig-A",', '  "text": "hi"', '}'].join(
      '\n',
    );
    const after = ['{', '  "role": "assistant",', '  "text": "hi",', '  "reasoning_content": ""', '}'].join(
      '\n',
    );
    const diff = lineDiff(before, after);
    expect(kinds(diff)).toEqual([
      ' {',
      '   "role": "assistant",',
      '-  "signature": "sig-A",',
      '-  "text": "hi"',
      '+  "text": "hi",',
      '+  "reasoning_content": ""',
      ' }',
    ]);
    expect(diff).toMatchObject({ added: 2, removed: 2 });
  });

  it('aligns a change inside a long shared history, and two equal texts have no change', () => {
    const history = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const changed = [...history.slice(0, 20), 'inserted', ...history.slice(20, 30), ...history.slice(31)];
    const diff = lineDiff(history.join('\n'), changed.join('\n'));
    expect(diff.lines.filter((l) => l.kind !== 'same')).toEqual([
      { kind: 'added', text: 'inserted' },
      { kind: 'removed', text: 'line 30' },
    ]);
    expect(lineDiff('a\nb', 'a\nb')).toEqual({
      lines: [
        { kind: 'same', text: 'a' },
        { kind: 'same', text: 'b' },
      ],
      added: 0,
      removed: 0,
    });
  });

  it('says when the differing middle is too large to align rather than spending the page on it', () => {
    const left = Array.from({ length: 3000 }, (_, i) => `l${i}`).join('\n');
    const right = Array.from({ length: 3000 }, (_, i) => `r${i}`).join('\n');
    const diff = lineDiff(left, right);
    expect(diff.unaligned).toMatch(/too many to align/);
    expect(diff).toMatchObject({ added: 3000, removed: 3000 });
  });
});
