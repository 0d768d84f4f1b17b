export { EventLog, type Emit } from './event-log';
export { runLoop, RunAborted, type LoopOptions, type ProviderBinding, type ResumePoint, type ToolRunner } from './run-loop';
export { RunBudgetExceeded } from './run-budget';
