/**
 * Output truncation at the source: a result over the limit is cut (at a line break when one
 * is near) and ends with a note saying how much was dropped and exactly how to ask for the
 * rest — an offset read for read_file, a narrower pattern for search. The note is an
 * affordance: the model reads it and asks for less.
 */
export function truncateOutput(options: {
  tool: string;
  args: Record<string, unknown> | undefined;
  content: string;
  limit: number;
}): {
  content: string;
  droppedChars: number;
} {
  const { tool, args, content, limit } = options;
  if (limit <= 0 || content.length <= limit) return { content, droppedChars: 0 };
  let kept = content.slice(0, limit);
  const newline = kept.lastIndexOf('\n');
  const atLineBreak = newline >= limit / 2;
  if (atLineBreak) kept = kept.slice(0, newline);
  const dropped = content.length - kept.length;
  return {
    content: `${kept}\n\n[TRUNCATED: ${dropped} more characters not shown. ${howToGetMore(tool, args, kept, atLineBreak)}]`,
    droppedChars: dropped,
  };
}

function howToGetMore(
  tool: string,
  args: Record<string, unknown> | undefined,
  kept: string,
  atLineBreak: boolean,
): string {
  if (tool === 'read_file') {
    const lineNumbers = [...kept.matchAll(/^(\d+)\t/gm)].map((m) => Number(m[1]));
    const last = lineNumbers.at(-1);
    const total = /— lines \d+–\d+ of (\d+)/.exec(kept)?.[1];
    const path = typeof args?.path === 'string' ? JSON.stringify(args.path) : 'the same path';
    if (last !== undefined) {
      const next = atLineBreak ? last + 1 : last;
      return (
        `Shown up to line ${atLineBreak ? last : `${last} (cut mid-line)`}${total ? ` of ${total}` : ''}. ` +
        `Call read_file with path ${path}, offset ${next} and a limit (e.g. 50) to read on, or use search to find the lines you need.`
      );
    }
    return `Call read_file with path ${path} and a smaller limit, then page with offset; or use search to find the lines you need.`;
  }
  if (tool === 'search') {
    return 'Narrow the pattern, pass a path to search one file or folder, or lower max_results.';
  }
  if (tool === 'list_files') return 'Pass a sub-folder as path to list less at a time.';
  return 'Ask for less: narrower arguments give a shorter result.';
}
