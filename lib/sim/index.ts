/** Simulated vendors (as `fetch`) and the scripted model policies behind them. */
export { createSimAnthropic } from './anthropic/sim-anthropic';
export { createSimDeepSeek, createSimOpenAI } from './openai/sim-openai';
export { REASONING_CONTENT_MISSING } from './openai/check-request';
export { createSimResponses } from './responses/sim-responses';
export { ResponseStore, STORED_RESPONSE_TTL_MS } from './responses/response-store';
export { noToolCall, noToolOutput, notVerified } from './responses/conversation';
export { previousNotFound } from './responses/check-request';
export { probeSimRequest, type ProbeVerdict } from './probe-request';
export { hasSimulator, registerSimulator, simulatorOf, type Simulator } from './simulators';
export { VendorRejection } from './rejection';
export { startSimServer, type SimServer } from './http-server';
export { startSimulatedVendors } from './serve-simulated';
export { createFreeTaskPolicy, createPolicy } from './policies/create-policy';
export type { AnswerFaultReport } from './policies/answer-format';
export { countRequestTokens } from './request-tokens';
export { signThinking, verifyThinking, DEFAULT_SIGNING_KEY } from './signature';
export {
  DEFAULT_PACING,
  type Pacing,
  type Policy,
  type PolicyRequest,
  type PolicyTool,
  type PolicyToolCall,
  type PolicyTurn,
  type SimVendorOptions,
} from './types';
