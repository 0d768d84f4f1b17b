export { withFaults, RULE_DICE, type FaultInjection, type WithFaultsOptions } from './with-faults';
export { describeFault } from './describe-fault';
export { RuleMatcher, type FaultPlanPosition } from './rule-matcher';
export { SseRecordReader, type SseRecord } from './sse-records';
export { contentKindOf, type ContentKind } from './content-kind';
export { fetchFailed, socketTerminated } from './undici-errors';
