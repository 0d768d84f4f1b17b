'use client';

import { useQuery } from '@tanstack/react-query';
import { ComparisonSchema, type Comparison } from '@/lib/protocol/http/compare';
import { ApiError, apiRequest } from './api-client';

/** While either side is still running, the comparison is re-read this often (each side's log grows). */
const LIVE_REFRESH_MS = 1_000;

export function compareUrl(a: string, b: string): string {
  return `/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

/** GET /api/compare, parsed at the edge: a body in another shape is an ApiError naming the field, not a guess. */
export function fetchComparison(a: string, b: string): Promise<Comparison> {
  return apiRequest(ComparisonSchema, `/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
}

/** Two runs compared; follows live sides until both have ended. A 4xx is not retried: it says what to fix. */
export function useComparison(a: string, b: string) {
  return useQuery({
    queryKey: ['compare', a, b],
    queryFn: () => fetchComparison(a, b),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    refetchInterval: (query) => (query.state.data && (query.state.data.a.running || query.state.data.b.running) ? LIVE_REFRESH_MS : false),
  });
}
