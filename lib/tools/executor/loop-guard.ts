/**
 * CodeSmith's loop guard: the Nth identical call (tool + canonical arguments) is blocked,
 * and consecutive failures of a tool draw a warning, then halt the run. A success resets
 * the tool's count.
 */
export class LoopGuard {
  private readonly calls = new Map<string, number>();
  private readonly consecutive = new Map<string, number>();

  constructor(
    private readonly config: { blockRepeatAt: number; warnAfterFailures: number; haltAfterFailures: number },
  ) {}

  /** Counts one more call with this key; true when it reaches the blocking count. */
  countCall(key: string): { count: number; blocked: boolean } {
    const count = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, count);
    return { count, blocked: count >= this.config.blockRepeatAt };
  }

  /** Books a call's outcome for its tool; says whether to warn or to halt. */
  recordOutcome(options: { tool: string; isError: boolean }): {
    consecutive: number;
    verdict?: 'warning' | 'halt';
  } {
    if (!options.isError) {
      this.consecutive.set(options.tool, 0);
      return { consecutive: 0 };
    }
    const consecutive = (this.consecutive.get(options.tool) ?? 0) + 1;
    this.consecutive.set(options.tool, consecutive);
    if (consecutive >= this.config.haltAfterFailures) return { consecutive, verdict: 'halt' };
    if (consecutive >= this.config.warnAfterFailures) return { consecutive, verdict: 'warning' };
    return { consecutive };
  }

  /**
   * After a workspace write, the same call may give a different answer (re-running the check
   * after an edit is progress, not a loop), so identical-call counts start again.
   */
  forgetCalls(): void {
    this.calls.clear();
  }
}
