'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ComparisonSchema, type Comparison, type CompareSide } from '@/lib/protocol/http/compare';
import { ApiError, apiRequest, eventsUrl } from './client';

/** A live side's new events are folded into the comparison at most this often. */
const REFRESH_MS = 400;

export function compareUrl(a: string, b: string): string {
  return `/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

/** GET /api/compare, parsed at the edge: a body in another shape is an ApiError naming the field, not a guess. */
export function fetchComparison(a: string, b: string, lesson?: string): Promise<Comparison> {
  const judgedBy = lesson ? `&lesson=${encodeURIComponent(lesson)}` : '';
  return apiRequest(ComparisonSchema, `/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}${judgedBy}`);
}

/**
 * Two runs compared. A side still running is followed on its own event stream (from the
 * events the comparison already has): each burst of events re-reads the comparison, until
 * that side's terminate. A 4xx is not retried: it says what to fix. `onEnd` hears a followed side's terminate the moment it arrives on its
 * stream, with the terminate's own run time: the page stops that side's clock there rather
 * than counting on through the re-read's round trip.
 */
export function useComparison(a: string, b: string, onEnd?: (side: 'a' | 'b', runMs: number) => void, lesson?: string) {
  const query = useQuery({
    queryKey: ['compare', a, b, lesson ?? ''],
    queryFn: () => fetchComparison(a, b, lesson),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
  });
  const ended = useRef(onEnd);
  ended.current = onEnd;
  useFollowSide(query.data?.a, ['compare', a, b, lesson ?? ''], (ms) => ended.current?.('a', ms));
  useFollowSide(query.data?.b, ['compare', a, b, lesson ?? ''], (ms) => ended.current?.('b', ms));
  return query;
}

function useFollowSide(side: CompareSide | undefined, queryKey: readonly string[], onEnd: (runMs: number) => void): void {
  const client = useQueryClient();
  const ended = useRef(onEnd);
  ended.current = onEnd;
  const id = side?.running ? side.id : undefined;
  // Only where the stream starts matters: later events arrive on the open stream.
  const after = side?.running ? side.eventCount - 1 : -1;
  const key = queryKey.join('\u0000');
  useEffect(() => {
    if (!id) return;
    const source = new EventSource(`${eventsUrl(id)}?after=${after}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      timer = undefined;
      void client.invalidateQueries({ queryKey: key.split('\u0000') });
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const step = followStep(message.data, timer !== undefined);
      if (step.close) source.close();
      if (step.endMs !== null) ended.current(step.endMs);
      if (step.refresh === 'now') {
        if (timer !== undefined) clearTimeout(timer);
        refresh();
      } else if (step.refresh === 'soon') timer = setTimeout(refresh, REFRESH_MS);
    };
    return () => {
      source.close();
      if (timer !== undefined) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the stream opens once per live side, from where the first read left off
  }, [id, client, key]);
}

/**
 * What one event on a followed side's stream calls for. Events in a burst are folded in one
 * re-read at most REFRESH_MS later; the terminate is read at once and closes the stream: until
 * the page knows the run ended, its run time keeps counting on (lib/client/compare-clock), and at
 * a slow time scale a 400 ms wait is many seconds of run time shown that the run never had.
 */
export function followStep(data: string, refreshPending: boolean): { close: boolean; refresh: 'now' | 'soon' | 'none'; endMs: number | null } {
  const endMs = terminateTs(data);
  if (endMs !== undefined) return { close: true, refresh: 'now', endMs };
  return { close: false, refresh: refreshPending ? 'none' : 'soon', endMs: null };
}

/** A terminate's run time (null: it carries none); undefined: the message is not a terminate. */
function terminateTs(data: string): number | null | undefined {
  try {
    const e = JSON.parse(data) as { event?: unknown; ts?: unknown } | null;
    if (e?.event !== 'terminate') return undefined;
    return typeof e.ts === 'number' ? e.ts : null;
  } catch {
    return undefined;
  }
}
