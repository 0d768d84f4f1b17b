export { EventLog, type Emit } from './event-log';
export { runLoop, RunAborted, type LoopOptions, type ResumePoint, type ToolRunner } from './run-loop';
export { RunBinding, type ProviderBinding } from './binding';
export type { EngineDeps } from './engine-deps';
export { RunBudgetExceeded } from './run-budget';
