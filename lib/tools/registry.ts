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

/** The tools of one run: the file tools plus the scenario's check. */
export function createToolbox(options: { scenario: Scenario; tools?: readonly AnyTool[] }): Toolbox {
  const tools: readonly AnyTool[] = options.tools ?? [
    listFilesTool,
    readFileTool,
    searchTool,
    editFileTool,
    writeFileTool,
    createRunCheckTool({ scenario: options.scenario }),
  ];
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    tools,
    names: () => tools.map((t) => t.name),
    get: (name) => byName.get(name),
    specs: () => tools.map((tool) => toToolSpec({ tool })),
  };
}
