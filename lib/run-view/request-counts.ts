import type { EventOf } from '@/lib/protocol';
import type { RunViewState } from './run-view-state';

type Counts = Pick<RunViewState, 'requests' | 'copiedRequests'>;

/**
 * Counts a model request as this run's or, in a fork, as one copied from the parent. A fork's
 * log carries the parent's requests of turns 1..k (numbered as the parent numbered them) and
 * then its own, numbered again from 1 — the attempt budget counts only the latter, so the count
 * shown against it must too. Copied requests are counted one by one: a fork of a fork copies
 * requests from two runs, each numbered from 1.
 */
export function countModelRequest(
  s: Pick<RunViewState, 'requests' | 'copiedRequests' | 'forkedFrom'>,
  e: EventOf<'model_request'>,
): Counts {
  const copied = s.forkedFrom !== undefined && e.seq <= s.forkedFrom.lastCopiedSeq;
  return copied
    ? { requests: s.requests, copiedRequests: s.copiedRequests + 1 }
    : { requests: Math.max(s.requests, e.request_no), copiedRequests: s.copiedRequests };
}

/** The header's words for the split, e.g. "12 requests: 7 copied from the parent, 5 in this run". */
export function requestSplitLabel(counts: Counts): string {
  const total = counts.requests + counts.copiedRequests;
  return `${total} ${total === 1 ? 'request' : 'requests'}: ${counts.copiedRequests} copied from the parent, ${counts.requests} in this run`;
}
