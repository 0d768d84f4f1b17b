export type { ModelRequest, ResponseFormat, ToolSpec } from './model-request';
export { describeMinter, isMintedBy } from './credentials';
export { parseToolArgs } from './parse-tool-args';
export { renderAnthropic, type RenderAnthropicOptions, type RenderedAnthropic } from './render-anthropic';
export {
  renderOpenAI,
  type AssistantMessageWithReasoning,
  type RenderOpenAIOptions,
  type RenderedOpenAI,
} from './render-openai';
export type { RenderReport } from './render-report';
export { heldReference, lastReference, markHeldBy, type ReferenceHolder } from './reference-holders';
export {
  MIN_OUTPUT_TOKENS,
  renderResponses,
  type HeldPrefix,
  type RenderResponsesOptions,
  type RenderedResponses,
} from './render-responses';
export { MIN_THINKING_BUDGET, modelReasons, thinkingBudget } from './thinking-budget';
export {
  forkableTurns,
  trajectoryFromLog,
  type LoggedMessage,
  type LoggedTrajectory,
  type TrajectoryResult,
} from './trajectory-from-log';
export { editMessages, reapplyLoggedEdit, type EditedMessage, type MessageEdit } from './fork-edits';
