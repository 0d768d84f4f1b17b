/**
 * The course's SafeExecutor ledger, kept per run: failures per tool (a spent budget
 * disables the tool) and the exact calls that failed (a repeat is answered without running).
 */
export class FailureBudget {
  private readonly failures = new Map<string, number>();
  private readonly disabled = new Set<string>();
  private readonly failedCalls = new Set<string>();

  /** `accountOf`: the account a tool books into (tools that share one share its budget); absent, the tool's name. */
  constructor(
    private readonly budget: number,
    private readonly accountOf: (tool: string) => string = (tool) => tool,
  ) {}

  isDisabled(tool: string): boolean {
    return this.disabled.has(this.accountOf(tool));
  }

  failedBefore(key: string): boolean {
    return this.failedCalls.has(key);
  }

  /** Books one failure; says whether this one spent the budget. */
  record(options: { tool: string; key?: string }): { disabledNow: boolean; left: number } {
    const account = this.accountOf(options.tool);
    const count = (this.failures.get(account) ?? 0) + 1;
    this.failures.set(account, count);
    if (options.key !== undefined) this.failedCalls.add(options.key);
    const disabledNow = count >= this.budget && !this.disabled.has(account);
    if (disabledNow) this.disabled.add(account);
    return { disabledNow, left: Math.max(0, this.budget - count) };
  }

  left(tool: string): number {
    return Math.max(0, this.budget - (this.failures.get(this.accountOf(tool)) ?? 0));
  }

  failureCount(tool: string): number {
    return this.failures.get(this.accountOf(tool)) ?? 0;
  }

  /** The disabled accounts (a tool's name, or the account its tools share). */
  disabledTools(): string[] {
    return [...this.disabled];
  }

  /** After a workspace write a failed call may now succeed: stop short-circuiting it. */
  forgetFailedCalls(): void {
    this.failedCalls.clear();
  }
}
