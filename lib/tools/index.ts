export type { Tool, ToolContext, ToolResult, Workspace } from './types';
export type { CheckResult, Scenario, ScenarioHints } from './scenario';
export { createWorkspace, MemoryWorkspace } from './workspace';
export { normalizePath, nearestPaths } from './paths';
export { createToolbox, TOOL_NAMES, type AnyTool, type Toolbox } from './registry';
export { toInputSchema, toToolSpec } from './tool-spec';
export { listFilesTool } from './tools/list-files';
export { readFileTool, DEFAULT_READ_LIMIT } from './tools/read-file';
export { searchTool, DEFAULT_MAX_RESULTS } from './tools/search';
export { editFileTool } from './tools/edit-file';
export { writeFileTool } from './tools/write-file';
export { createRunCheckTool } from './tools/run-check';
export { runNodeTests } from './check/run-node-tests';
export type { SlotShare } from './check/fair-slots';
export { getScenario, listScenarios, DEFAULT_SCENARIO_ID } from './scenarios';
export {
  hashTaskFiles,
  loadTaskDir,
  loadUploadedTask,
  checkTaskFiles,
  pinTaskDir,
  readTaskFiles,
  taskFromFiles,
  TaskFolderError,
  type TaskFiles,
} from './tasks/load-task';
export {
  createToolExecutor,
  type ExecuteContext,
  type ToolExecutor,
  type ToolExecutorOptions,
} from './executor';
export { canonicalKey } from './executor/canonical-key';
export { truncateOutput } from './executor/truncate-output';
