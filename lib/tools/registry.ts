import type { ToolSpec } from '@/lib/providers/types';
import type { Scenario } from './scenario';
import { toToolSpec } from './tool-spec';
import { editFileTool } from './tools/edit-file';
import { listFilesTool } from './tools/list-files';
import { readFileTool } from './tools/read-file';
import { createRunCheckTool } from './tools/run-check';
import { searchTool } from './tools/search';
import { writeFileTool } from './tools/write-file';
import type { Tool } from './types';

/**
 * A tool whose argument type has been erased: the executor validates arguments with the
 * tool's own schema before calling it, so the toolbox can hold tools of any input type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

export interface Toolbox {
  readonly tools: readonly AnyTool[];
  names(): string[];
  get(name: string): AnyTool | undefined;
  /** What the model is shown: name, description and a vendor-safe JSON Schema per tool. */
  specs(): ToolSpec[];
}

/** The names of a run's tools, in the order the model is shown them. */
export const TOOL_NAMES = [
  'list_files',
  'read_file',
  'search',
  'edit_file',
  'write_file',
  'run_check',
] as const;

/**
 * The tools of one run: the file tools plus the scenario's check. `descriptions` replaces
 * what the model is told a tool does (a prompt experiment); behaviour and schema stay.
 */
export function createToolbox(options: {
  scenario: Scenario;
  tools?: readonly AnyTool[];
  /** Tools from elsewhere (a run's MCP servers): one named like a built-in tool takes its place, the others follow. */
  extra?: readonly AnyTool[];
  descriptions?: Readonly<Record<string, string>>;
}): Toolbox {
  const base: readonly AnyTool[] = options.tools ?? [
    listFilesTool,
    readFileTool,
    searchTool,
    editFileTool,
    writeFileTool,
    createRunCheckTool({ scenario: options.scenario }),
  ];
  const extra = options.extra ?? [];
  const replaced = new Map(extra.map((t) => [t.name, t]));
  const merged = [
    ...base.map((tool) => replaced.get(tool.name) ?? tool),
    ...extra.filter((t) => !base.some((b) => b.name === t.name)),
  ];
  const descriptions = options.descriptions ?? {};
  const tools = merged.map((tool) =>
    descriptions[tool.name] === undefined ? tool : { ...tool, description: descriptions[tool.name]! },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    tools,
    names: () => tools.map((t) => t.name),
    get: (name) => byName.get(name),
    specs: () => tools.map((tool) => toToolSpec({ tool })),
  };
}
