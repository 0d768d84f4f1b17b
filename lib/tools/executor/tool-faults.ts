import type { Random } from '@/lib/clock';
import type { ToolFault } from '@/lib/protocol';

/** The default chance that a flaky tool fails when the fault gives none. */
export const DEFAULT_FLAKY_P = 0.5;
/** The default size of a huge output when the fault gives none. */
export const DEFAULT_HUGE_CHARS = 50_000;

/** An error a tool fault raises, named so the result text says it was injected. */
export class InjectedToolError extends Error {
  override readonly name = 'InjectedToolError';
}

/** Faults that apply to this tool now (read at each call, so live toggles take effect). */
export function activeFaults(options: { faults: readonly ToolFault[]; tool: string }): ToolFault[] {
  return options.faults.filter((f) => f.enabled !== false && (f.tool === '*' || f.tool === options.tool));
}

/** Throws for a throw fault, or for a flaky fault whose seeded die comes up. */
export function raiseFaults(options: { faults: readonly ToolFault[]; tool: string; random: Random }): void {
  for (const fault of options.faults) {
    if (fault.kind === 'throw') {
      throw new InjectedToolError(`${options.tool} crashed (tool fault "${fault.id}")`);
    }
    if (fault.kind === 'flaky' && options.random.next() < (fault.p ?? DEFAULT_FLAKY_P)) {
      throw new InjectedToolError(
        `${options.tool} failed transiently (flaky tool fault "${fault.id}"); it may work if tried again`,
      );
    }
  }
}

/** Total delay of the slow faults that apply. */
export function slowDelayMs(faults: readonly ToolFault[]): number {
  return faults.reduce((sum, f) => sum + (f.kind === 'slow' ? (f.delayMs ?? 0) : 0), 0);
}

/**
 * A huge fault's output: exactly `chars` characters — the real output, then numbered filler
 * lines (or the real output cut, when it is already longer).
 */
export function inflateOutput(options: { content: string; faults: readonly ToolFault[] }): string {
  const huge = options.faults.find((f) => f.kind === 'huge');
  if (!huge) return options.content;
  const chars = huge.chars ?? DEFAULT_HUGE_CHARS;
  const parts = [options.content];
  let length = options.content.length;
  for (let n = 1; length < chars; n++) {
    const line = `\n[huge output ${n}] ${'lorem ipsum dolor sit amet '.repeat(3).trim()}`;
    parts.push(line);
    length += line.length;
  }
  return parts.join('').slice(0, chars);
}
