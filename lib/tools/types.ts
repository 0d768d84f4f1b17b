import type { z } from 'zod';
import type { Clock } from '@/lib/clock';
import type { Random } from '@/lib/clock';
import type { SlotShare } from './check/fair-slots';

/** What a tool returns. The executor never throws: failures come back with isError. */
export interface ToolResult {
  content: string;
  isError: boolean;
  /**
   * Set when the machine could not do the tool's work (a check starved of CPU on every try):
   * the result is not an answer to the model, and the run ends with `host_overloaded` and
   * this message instead of going on with a trajectory the machine's speed decided.
   */
  hostOverloaded?: string;
}

export interface ToolContext {
  workspace: Workspace;
  clock: Clock;
  random: Random;
  signal: AbortSignal;
  /** The run the call belongs to, for what runs share among runs (the check sandbox's slots). */
  share?: SlotShare;
}

/** A tool declares a zod input schema; arguments are validated before it runs. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  /** Changes the workspace: a forked run replays these calls to rebuild its parent's files. */
  mutates?: boolean;
  /** Reads only, so it may run at the same time as other such calls of its turn (up to `tools.maxParallel`). */
  parallelSafe?: boolean;
  /** Runs model-written code in the check sandbox: counted against the run's check rate (`tools.checkRateMax`). */
  sandboxed?: boolean;
  /**
   * The failure budget's account it books into (the safe executor disables every tool of an
   * account once the account's failures reach the budget): an MCP server's tools share one
   * (`mcp:<server>`). Absent: the tool's own name.
   */
  budgetKey?: string;
  run(args: I, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

/** The virtual workspace: an in-memory file tree, one per run. Nothing touches the disk. */
export interface Workspace {
  list(dir?: string): string[];
  read(path: string): string | undefined;
  write(path: string, content: string): void;
  exists(path: string): boolean;
  /** True for the root and any folder that holds a file. */
  isDir(path: string): boolean;
  paths(): string[];
  /** Bumped by every write: an answer given before a write may differ after it. */
  revision(): number;
}
