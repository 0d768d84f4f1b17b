'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Comparison, CompareSide } from '@/lib/protocol/http/compare';
import { ApiError, apiRequest, eventsUrl } from './client';
import { useEventStream } from './event-stream';

/** A live side's new events are folded into the comparison at most this often. */
const REFRESH_MS = 400;

/** `sweep`: the two runs are a seed pair of that sweep, whose paired result /compare shows beside them. */
export function compareUrl(a: string, b: string, sweep?: string): string {
  const of = sweep ? `&sweep=${encodeURIComponent(sweep)}` : '';
  return `/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}${of}`;
}

/** GET /api/compare, parsed at the edge: a body in another shape is an ApiError naming the field, not a guess. */
export function fetchComparison(a: string, b: string, lesson?: string): Promise<Comparison> {
  const judgedBy = lesson ? `&lesson=${encodeURIComponent(lesson)}` : '';
  return apiRequest(
    (h) => h.ComparisonSchema,
    `/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}${judgedBy}`,
  );
}

/**
 * Two runs compared. A side still running is followed on its own event stream (from the
 * events the comparison already has): each burst of events re-reads the comparison, until
 * that side's terminate. A 4xx is not retried: it says what to fix. `onEnd` hears a followed side's terminate the moment it arrives on its
 * stream, with the terminate's own run time: the page stops that side's clock there rather
 * than counting on through the re-read's round trip.
 */
export function useComparison(
  a: string,
  b: string,
  onEnd?: (side: 'a' | 'b', runMs: number) => void,
  lesson?: string,
) {
  const query = useQuery({
    queryKey: ['compare', a, b, lesson ?? ''],
    queryFn: () => fetchComparison(a, b, lesson),
    retry: (count, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
  });
  const ended = useRef(onEnd);
  ended.current = onEnd;
  useFollowSide(query.data?.a, ['compare', a, b, lesson ?? ''], (ms) => ended.current?.('a', ms));
  useFollowSide(query.data?.b, ['compare', a, b, lesson ?? ''], (ms) => ended.current?.('b', ms));
  return query;
}

function useFollowSide(
  side: CompareSide | undefined,
  queryKey: readonly string[],
  onEnd: (runMs: number) => void,
): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Only where the stream starts matters (from the events the first read had): later events
  // arrive on the open stream, so the stream is opened once per live side.
  const start = useRef<{ id: string; after: number }>(undefined);
  const id = side?.running ? side.id : undefined;
  if (side && id !== undefined && start.current?.id !== id)
    start.current = { id, after: side.eventCount - 1 };
  const url = id !== undefined && start.current ? `${eventsUrl(id)}?after=${start.current.after}` : undefined;
  const refresh = () => {
    timer.current = undefined;
    void client.invalidateQueries({ queryKey: [...queryKey] });
  };
  useEventStream(url, {
    onMessage: (value, stream) => {
      const step = followStep(value, timer.current !== undefined);
      if (step.close) stream.close();
      if (step.endMs !== null) onEnd(step.endMs);
      if (step.refresh === 'now') {
        if (timer.current !== undefined) clearTimeout(timer.current);
        refresh();
      } else if (step.refresh === 'soon') timer.current = setTimeout(refresh, REFRESH_MS);
    },
  });
  useEffect(() => () => clearTimeout(timer.current), [url]);
}

/**
 * What one event on a followed side's stream calls for. Events in a burst are folded in one
 * re-read at most REFRESH_MS later; the terminate is read at once and closes the stream: until
 * the page knows the run ended, its run time keeps counting on (lib/client/run-view/compare-clock.ts), and at
 * a slow time scale a 400 ms wait is many seconds of run time shown that the run never had.
 */
export function followStep(
  value: unknown,
  refreshPending: boolean,
): { close: boolean; refresh: 'now' | 'soon' | 'none'; endMs: number | null } {
  const endMs = terminateTs(value);
  if (endMs !== undefined) return { close: true, refresh: 'now', endMs };
  return { close: false, refresh: refreshPending ? 'none' : 'soon', endMs: null };
}

/** A terminate's run time (null: it carries none); undefined: the message is not a terminate. */
function terminateTs(value: unknown): number | null | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as { event?: unknown; ts?: unknown };
  if (e.event !== 'terminate') return undefined;
  return typeof e.ts === 'number' ? e.ts : null;
}
